//! `--sandbox`'s file system: folders and files in memory, seeded from `--sandbox-dir`;
//! nothing the program writes reaches the host. The program starts in [`HOME`] (where the
//! seed folder's files are), the temporary folder is `/tmp/`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

use super::{FileSystem, FsResult, OpenFile, OpenMode, EEXIST, EISDIR, ENOENT, ENOTDIR, ENOTEMPTY};

/// The current folder of a sandboxed program.
pub const HOME: &str = "/sandbox";
const TEMP: &str = "/tmp";

/// A file's bytes, shared by the folder entry and the handles open on it (a deleted file
/// stays readable through its open handles, as on Linux).
type Content = Rc<RefCell<Vec<u8>>>;

enum Node {
    Folder,
    File(Content),
}

/// Every folder and file by absolute, normalized path (`/sandbox/a.txt`).
pub struct MemoryFileSystem {
    nodes: BTreeMap<String, Node>,
}

/// An open file of the sandbox.
struct MemoryFile {
    content: Content,
    append: bool,
}

impl OpenFile for MemoryFile {
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> FsResult<usize> {
        let content = self.content.borrow();
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(content.len());
        let n = buffer.len().min(content.len() - start);
        buffer[..n].copy_from_slice(&content[start..start + n]);
        Ok(n)
    }

    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> FsResult<()> {
        let mut content = self.content.borrow_mut();
        let start = if self.append { content.len() } else { usize::try_from(offset).unwrap_or(usize::MAX) };
        let end = start.checked_add(bytes.len()).ok_or(super::EIO)?;
        if content.len() < end {
            content.resize(end, 0);
        }
        content[start..end].copy_from_slice(bytes);
        Ok(())
    }

    fn byte_length(&self) -> FsResult<u64> {
        Ok(self.content.borrow().len() as u64)
    }
}

impl Default for MemoryFileSystem {
    fn default() -> Self {
        MemoryFileSystem::new()
    }
}

impl MemoryFileSystem {
    /// `/`, [`HOME`] and `/tmp`, empty.
    pub fn new() -> MemoryFileSystem {
        let mut nodes = BTreeMap::new();
        for folder in ["/", HOME, TEMP] {
            nodes.insert(folder.to_string(), Node::Folder);
        }
        MemoryFileSystem { nodes }
    }

    /// Copies the files and folders under `dir` on the host into [`HOME`].
    pub fn seed_from(&mut self, dir: &Path) {
        self.copy_host_folder(dir, HOME);
    }

    fn copy_host_folder(&mut self, dir: &Path, into: &str) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.filter_map(Result::ok) {
            let target = format!("{into}/{}", entry.file_name().to_string_lossy());
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                self.nodes.insert(target.clone(), Node::Folder);
                self.copy_host_folder(&entry.path(), &target);
            } else if let Ok(bytes) = std::fs::read(entry.path()) {
                self.nodes.insert(target, Node::File(Rc::new(RefCell::new(bytes))));
            }
        }
    }

    /// `path` made absolute (from [`HOME`]) with `.`, `..` and repeated `/` resolved.
    fn normalize(path: &str) -> String {
        let mut parts: Vec<&str> = Vec::new();
        let full = if path.starts_with('/') { path.to_string() } else { format!("{HOME}/{path}") };
        for part in full.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                p => parts.push(p),
            }
        }
        format!("/{}", parts.join("/"))
    }

    fn parent(path: &str) -> &str {
        match path.rfind('/') {
            Some(0) | None => "/",
            Some(i) => &path[..i],
        }
    }

    fn is_folder(&self, path: &str) -> bool {
        matches!(self.nodes.get(path), Some(Node::Folder))
    }

    fn file(&self, path: &str) -> Option<&Content> {
        match self.nodes.get(path) {
            Some(Node::File(c)) => Some(c),
            _ => None,
        }
    }

    /// ENOENT when the file is missing from an existing folder, ENOTDIR when the folder is.
    fn missing_error(&self, path: &str) -> i32 {
        if self.is_folder(Self::parent(path)) {
            ENOENT
        } else {
            ENOTDIR
        }
    }

    /// A new empty file at the normalized `path`, whose folder must exist.
    fn create_file(&mut self, path: &str) -> FsResult<Content> {
        if !self.is_folder(Self::parent(path)) {
            return Err(ENOTDIR);
        }
        let content: Content = Rc::default();
        self.nodes.insert(path.to_string(), Node::File(content.clone()));
        Ok(content)
    }

    /// The entries directly inside the folder `path`.
    fn children<'a>(&'a self, path: &'a str) -> impl Iterator<Item = (&'a str, &'a Node)> + 'a {
        let prefix = if path == "/" { "/".to_string() } else { format!("{path}/") };
        let skip = prefix.len();
        let inside = prefix.clone();
        self.nodes.range(prefix..).take_while(move |(k, _)| k.starts_with(&inside)).filter_map(move |(k, n)| {
            let name = &k[skip..];
            (!name.is_empty() && !name.contains('/')).then_some((name, n))
        })
    }

    fn source_content(&self, source: &str) -> FsResult<Content> {
        self.file(source).cloned().ok_or_else(|| self.missing_error(source))
    }
}

impl FileSystem for MemoryFileSystem {
    fn open(&mut self, path: &str, how: OpenMode) -> FsResult<Box<dyn OpenFile>> {
        let path = Self::normalize(path);
        if self.is_folder(&path) {
            return Err(EISDIR);
        }
        let existing = self.file(&path).cloned();
        let content = match (how.mode, existing) {
            (1, Some(_)) => return Err(EEXIST),
            (3 | 5, None) => return Err(self.missing_error(&path)),
            (2 | 5, Some(c)) => {
                c.borrow_mut().clear();
                c
            }
            (_, Some(c)) => c,
            (_, None) => self.create_file(&path)?,
        };
        Ok(Box::new(MemoryFile { content, append: how.mode == 6 }))
    }

    fn delete(&mut self, path: &str) -> FsResult<()> {
        let path = Self::normalize(path);
        match self.nodes.get(&path) {
            Some(Node::File(_)) => {
                self.nodes.remove(&path);
                Ok(())
            }
            Some(Node::Folder) => Err(EISDIR),
            None => match self.missing_error(&path) {
                ENOENT => Ok(()),
                other => Err(other),
            },
        }
    }

    fn file_exists(&self, path: &str) -> bool {
        self.file(&Self::normalize(path)).is_some()
    }

    fn directory_exists(&self, path: &str) -> bool {
        self.is_folder(&Self::normalize(path))
    }

    fn file_length(&self, path: &str) -> Option<u64> {
        self.file(&Self::normalize(path)).map(|c| c.borrow().len() as u64)
    }

    fn temp_dir(&self) -> String {
        format!("{TEMP}/")
    }

    fn create_new(&mut self, path: &str) -> FsResult<()> {
        let path = Self::normalize(path);
        if self.nodes.contains_key(&path) {
            return Err(EEXIST);
        }
        self.create_file(&path).map(drop)
    }

    fn create_directory(&mut self, path: &str) -> FsResult<()> {
        let path = Self::normalize(path);
        let mut at = String::new();
        for part in path.split('/').filter(|p| !p.is_empty()) {
            at.push('/');
            at.push_str(part);
            match self.nodes.get(&at) {
                Some(Node::File(_)) => return Err(EEXIST),
                Some(Node::Folder) => {}
                None => {
                    self.nodes.insert(at.clone(), Node::Folder);
                }
            }
        }
        Ok(())
    }

    fn delete_directory(&mut self, path: &str, recursive: bool) -> FsResult<()> {
        let path = Self::normalize(path);
        if !self.is_folder(&path) || path == "/" {
            return Err(ENOTDIR);
        }
        if self.children(&path).next().is_some() && !recursive {
            return Err(ENOTEMPTY);
        }
        let prefix = format!("{path}/");
        self.nodes.retain(|k, _| *k != path && !k.starts_with(&prefix));
        Ok(())
    }

    fn list(&self, path: &str, kinds: i32) -> FsResult<Vec<String>> {
        let path = Self::normalize(path);
        if !self.is_folder(&path) {
            return Err(ENOTDIR);
        }
        let wanted = |n: &Node| kinds & if matches!(n, Node::Folder) { 2 } else { 1 } != 0;
        Ok(self.children(&path).filter(|(_, n)| wanted(n)).map(|(name, _)| name.to_string()).collect())
    }

    fn rename(&mut self, source: &str, destination: &str) -> FsResult<()> {
        let (source, destination) = (Self::normalize(source), Self::normalize(destination));
        let content = self.source_content(&source)?;
        if !self.is_folder(Self::parent(&destination)) {
            return Err(ENOTDIR);
        }
        self.nodes.remove(&source);
        self.nodes.insert(destination, Node::File(content));
        Ok(())
    }

    fn copy(&mut self, source: &str, destination: &str) -> FsResult<()> {
        let (source, destination) = (Self::normalize(source), Self::normalize(destination));
        let bytes = self.source_content(&source)?.borrow().clone();
        let content = self.create_file(&destination)?;
        *content.borrow_mut() = bytes;
        Ok(())
    }

    fn current_directory(&self) -> String {
        HOME.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_resolved_from_home() {
        assert_eq!(MemoryFileSystem::normalize("a.txt"), "/sandbox/a.txt");
        assert_eq!(MemoryFileSystem::normalize("/tmp//x/../y"), "/tmp/y");
        assert_eq!(MemoryFileSystem::normalize("../../.."), "/");
    }

    #[test]
    fn written_files_are_read_back_and_listed() {
        let mut fs = MemoryFileSystem::new();
        let mut f = fs.open("notes/a.txt", OpenMode { mode: 2, access: 2 }).err();
        assert_eq!(f.take(), Some(ENOTDIR));
        fs.create_directory("notes").unwrap_or_default();
        let mut file = fs.open("notes/a.txt", OpenMode { mode: 2, access: 3 }).unwrap_or_else(|e| panic!("open: {e}"));
        assert_eq!(file.write_at(0, b"hello"), Ok(()));
        let mut buffer = [0u8; 8];
        assert_eq!(file.read_at(1, &mut buffer), Ok(4));
        assert_eq!(&buffer[..4], b"ello");
        assert_eq!(fs.list("/sandbox/notes", 3), Ok(vec!["a.txt".to_string()]));
        assert_eq!(fs.list("/sandbox", 2), Ok(vec!["notes".to_string()]));
        assert_eq!(fs.delete_directory("notes", false), Err(ENOTEMPTY));
    }
}
