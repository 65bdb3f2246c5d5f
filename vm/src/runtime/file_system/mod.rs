//! The file system `System.IO` sees, behind one interface the file intrinsics
//! (`runtime/intrinsics/files.rs`) call: the host's real files ([`host::HostFileSystem`]),
//! or under `--sandbox` a file system in memory ([`memory::MemoryFileSystem`], seeded from
//! `--sandbox-dir`) whose writes never reach the host. Failures are Linux error numbers,
//! which the cs-lite side turns into .NET's exceptions.

pub mod host;
pub mod memory;

use super::options::VmOptions;

/// A result whose error is a Linux error number.
pub type FsResult<T> = Result<T, i32>;

// Error numbers as Linux has them (what the cs-lite side maps to exceptions).
pub const ENOENT: i32 = 2;
pub const EIO: i32 = 5;
pub const EACCES: i32 = 13;
pub const EEXIST: i32 = 17;
/// What the VM reports when a folder on the path is missing (Linux says ENOENT for both;
/// .NET tells them apart with a second look).
pub const ENOTDIR: i32 = 20;
pub const EISDIR: i32 = 21;
pub const ENOTEMPTY: i32 = 39;

/// How `open` opens a file: `FileMode` (1 CreateNew, 2 Create, 3 Open, 4 OpenOrCreate,
/// 5 Truncate, 6 Append) and `FileAccess` (1 Read, 2 Write, 3 both), as .NET numbers them.
#[derive(Clone, Copy, Debug)]
pub struct OpenMode {
    pub mode: i32,
    pub access: i32,
}

/// An open file, read and written at an offset (as `pread`/`pwrite`).
pub trait OpenFile {
    /// Reads into `buffer` from `offset`; the number of bytes read (0 at the end).
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> FsResult<usize>;
    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> FsResult<()>;
    fn byte_length(&self) -> FsResult<u64>;
}

/// What `System.IO` asks of a file system; paths are as the program wrote them.
pub trait FileSystem {
    fn open(&mut self, path: &str, how: OpenMode) -> FsResult<Box<dyn OpenFile>>;
    /// Deletes a file; a missing file in an existing folder is not an error (.NET's
    /// `File.Delete`).
    fn delete(&mut self, path: &str) -> FsResult<()>;
    fn file_exists(&self, path: &str) -> bool;
    fn directory_exists(&self, path: &str) -> bool;
    /// The length of the file at `path`, if there is one.
    fn file_length(&self, path: &str) -> Option<u64>;
    /// The temporary folder, ending in `/`.
    fn temp_dir(&self) -> String;
    /// Creates an empty file that must not exist yet (EEXIST if it does).
    fn create_new(&mut self, path: &str) -> FsResult<()>;
    /// Creates the folder and every missing parent.
    fn create_directory(&mut self, path: &str) -> FsResult<()>;
    fn delete_directory(&mut self, path: &str, recursive: bool) -> FsResult<()>;
    /// The names of a folder's entries: `kinds` 1 files, 2 folders, 3 both; sorted.
    fn list(&self, path: &str, kinds: i32) -> FsResult<Vec<String>>;
    fn rename(&mut self, source: &str, destination: &str) -> FsResult<()>;
    fn copy(&mut self, source: &str, destination: &str) -> FsResult<()>;
    fn current_directory(&self) -> String;
}

/// The host's files, or under `--sandbox` a file system in memory (seeded from
/// `--sandbox-dir`; a folder that cannot be read leaves it empty).
pub fn for_options(options: &VmOptions) -> Box<dyn FileSystem> {
    if !options.sandbox {
        return Box::new(host::HostFileSystem);
    }
    let mut fs = memory::MemoryFileSystem::new();
    if let Some(dir) = &options.sandbox_dir {
        fs.seed_from(dir);
    }
    Box::new(fs)
}
