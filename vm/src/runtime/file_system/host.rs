//! The host's real files, as .NET's `System.IO` uses them (no `--sandbox`).

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::{FileSystem, FsResult, OpenFile, OpenMode, EACCES, EEXIST, EIO, EISDIR, ENOENT, ENOTDIR, ENOTEMPTY};

/// The host's file system.
pub struct HostFileSystem;

/// The OS error number of a failure.
fn errno(e: &std::io::Error) -> i32 {
    if let Some(n) = e.raw_os_error() {
        return n;
    }
    match e.kind() {
        ErrorKind::NotFound => ENOENT,
        ErrorKind::PermissionDenied => EACCES,
        ErrorKind::AlreadyExists => EEXIST,
        _ => EIO,
    }
}

/// ENOENT when the file is missing from an existing folder, ENOTDIR when the folder is.
fn missing_error(path: &str) -> i32 {
    let parent_exists = Path::new(path).parent().is_none_or(|p| p.as_os_str().is_empty() || p.is_dir());
    if parent_exists {
        ENOENT
    } else {
        ENOTDIR
    }
}

fn status(result: std::io::Result<()>) -> FsResult<()> {
    result.map_err(|e| errno(&e))
}

/// Why a file cannot be moved or copied from `source` to `destination`, checked before
/// trying: a missing source (a destination that exists is the caller's check).
fn check_source(source: &str) -> FsResult<()> {
    if Path::new(source).is_file() {
        Ok(())
    } else {
        Err(missing_error(source))
    }
}

impl OpenFile for File {
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> FsResult<usize> {
        self.seek(SeekFrom::Start(offset)).and_then(|_| self.read(buffer)).map_err(|e| errno(&e))
    }

    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> FsResult<()> {
        self.seek(SeekFrom::Start(offset)).and_then(|_| self.write_all(bytes)).map_err(|e| errno(&e))
    }

    fn byte_length(&self) -> FsResult<u64> {
        self.metadata().map(|m| m.len()).map_err(|e| errno(&e))
    }
}

impl FileSystem for HostFileSystem {
    fn open(&mut self, path: &str, how: OpenMode) -> FsResult<Box<dyn OpenFile>> {
        let mut options = OpenOptions::new();
        options.read(how.access & 1 != 0).write(how.access & 2 != 0);
        match how.mode {
            1 => options.create_new(true),
            2 => options.create(true).truncate(true),
            4 => options.create(true),
            5 => options.truncate(true),
            6 => options.create(true).append(true),
            _ => &mut options,
        };
        let file = match options.open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == ErrorKind::NotFound => return Err(missing_error(path)),
            Err(e) => return Err(errno(&e)),
        };
        match file.metadata() {
            Ok(m) if m.is_dir() => Err(EISDIR),
            Err(e) => Err(errno(&e)),
            Ok(_) => Ok(Box::new(file)),
        }
    }

    fn delete(&mut self, path: &str) -> FsResult<()> {
        match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::NotFound => match missing_error(path) {
                ENOENT => Ok(()),
                other => Err(other),
            },
            Err(e) => Err(errno(&e)),
        }
    }

    fn file_exists(&self, path: &str) -> bool {
        Path::new(path).is_file()
    }

    fn directory_exists(&self, path: &str) -> bool {
        Path::new(path).is_dir()
    }

    fn file_length(&self, path: &str) -> Option<u64> {
        std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len())
    }

    /// `TMPDIR`, else `/tmp/`, as `Path.GetTempPath`.
    fn temp_dir(&self) -> String {
        let mut dir = std::env::temp_dir().to_string_lossy().into_owned();
        if !dir.ends_with('/') {
            dir.push('/');
        }
        dir
    }

    fn create_new(&mut self, path: &str) -> FsResult<()> {
        status(OpenOptions::new().write(true).create_new(true).open(path).map(drop))
    }

    fn create_directory(&mut self, path: &str) -> FsResult<()> {
        status(std::fs::create_dir_all(path))
    }

    fn delete_directory(&mut self, path: &str, recursive: bool) -> FsResult<()> {
        if !Path::new(path).is_dir() {
            return Err(ENOTDIR);
        }
        let result = if recursive { std::fs::remove_dir_all(path) } else { std::fs::remove_dir(path) };
        match result {
            Err(e) if e.kind() == ErrorKind::DirectoryNotEmpty => Err(ENOTEMPTY),
            other => status(other),
        }
    }

    fn list(&self, path: &str, kinds: i32) -> FsResult<Vec<String>> {
        let entries = match std::fs::read_dir(path) {
            Ok(entries) => entries,
            Err(e) if e.kind() == ErrorKind::NotFound => return Err(ENOTDIR),
            Err(e) => return Err(errno(&e)),
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| {
                let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                kinds & if is_dir { 2 } else { 1 } != 0
            })
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        Ok(names)
    }

    fn rename(&mut self, source: &str, destination: &str) -> FsResult<()> {
        check_source(source)?;
        status(std::fs::rename(source, destination))
    }

    fn copy(&mut self, source: &str, destination: &str) -> FsResult<()> {
        check_source(source)?;
        status(std::fs::copy(source, destination).map(drop))
    }

    fn current_directory(&self) -> String {
        std::env::current_dir().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default()
    }
}
