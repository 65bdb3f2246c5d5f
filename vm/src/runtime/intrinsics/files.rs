//! The file intrinsics behind `System.IO` (`FileNative` in `stdlib/System/IO/File.cs-lite`):
//! real files of the host, opened, read and written at an offset (as `pread`/`pwrite`),
//! closed, deleted, and temporary files created. An open file is a heap object
//! (`NativeData::File`), so a stream nobody closes is closed by the collector, as a
//! `SafeFileHandle`'s finalizer would. Failures are returned as the OS error number; the
//! cs-lite side turns them into .NET's exceptions and messages.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};

use super::support::{arg, int_arg, nre};
use crate::runtime::native::{NativeData, NativeEntry, NativeError, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "FileNative.Open", func: open },
    NativeEntry { name: "FileNative.Read", func: read },
    NativeEntry { name: "FileNative.Write", func: write },
    NativeEntry { name: "FileNative.Length", func: length },
    NativeEntry { name: "FileNative.Close", func: close },
    NativeEntry { name: "FileNative.Delete", func: delete },
    NativeEntry { name: "FileNative.Exists", func: exists },
    NativeEntry { name: "FileNative.CreateTempFile", func: create_temp_file },
    NativeEntry { name: "FileNative.TempPath", func: temp_path },
    NativeEntry { name: "FileNative.DirectoryExists", func: directory_exists },
    NativeEntry { name: "FileNative.CreateDirectory", func: create_directory },
    NativeEntry { name: "FileNative.DeleteDirectory", func: delete_directory },
    NativeEntry { name: "FileNative.List", func: list },
    NativeEntry { name: "FileNative.Move", func: move_file },
    NativeEntry { name: "FileNative.Copy", func: copy_file },
    NativeEntry { name: "FileNative.CurrentDirectory", func: current_directory },
    NativeEntry { name: "FileNative.FileLength", func: file_length },
];

// Error numbers as Linux has them (what the cs-lite side maps to exceptions).
const ENOENT: i32 = 2;
const EIO: i32 = 5;
const EACCES: i32 = 13;
const EEXIST: i32 = 17;
/// What the VM reports when a folder on the path is missing (Linux says ENOENT for both;
/// .NET tells them apart with a second look, as `missing_error` does).
const ENOTDIR: i32 = 20;
const EISDIR: i32 = 21;
const ENOTEMPTY: i32 = 39;

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

/// `Open(path, mode, access)`: mode is `FileMode` (1 CreateNew, 2 Create, 3 Open,
/// 4 OpenOrCreate, 5 Truncate, 6 Append), access `FileAccess` (1 Read, 2 Write, 3 both).
/// Returns the open file, or the error number as an `int`.
fn open(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let (mode, access) = (int_arg(args, 1), int_arg(args, 2));
    let mut options = OpenOptions::new();
    options.read(access & 1 != 0).write(access & 2 != 0);
    match mode {
        1 => options.create_new(true),
        2 => options.create(true).truncate(true),
        4 => options.create(true),
        5 => options.truncate(true),
        6 => options.create(true).append(true),
        _ => &mut options,
    };
    let file = match options.open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Value::I32(missing_error(&path))),
        Err(e) => return Ok(Value::I32(errno(&e))),
    };
    match file.metadata() {
        Ok(m) if m.is_dir() => return Ok(Value::I32(EISDIR)),
        Err(e) => return Ok(Value::I32(errno(&e))),
        Ok(_) => {}
    }
    Ok(Value::Ref(vm.heap.alloc(Obj::Native(Box::new(NativeData::File(Some(file)))))))
}

/// ENOENT when the file is missing from an existing folder, ENOTDIR when the folder is.
fn missing_error(path: &str) -> i32 {
    let parent_exists = std::path::Path::new(path).parent().is_none_or(|p| p.as_os_str().is_empty() || p.is_dir());
    if parent_exists {
        ENOENT
    } else {
        ENOTDIR
    }
}

/// The open file behind a handle (`None` once closed).
fn file_mut(vm: &mut Vm, handle: Value) -> Result<Option<&mut File>, NativeError> {
    match handle.gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        Some(Obj::Native(n)) => match n.as_mut() {
            NativeData::File(f) => Ok(f.as_mut()),
            _ => Err(nre()),
        },
        _ => Err(nre()),
    }
}

/// The bytes `[offset, offset + count)` of a `byte[]` argument's range, checked.
fn byte_range(vm: &Vm, array: Value, offset: i32, count: i32) -> Result<(usize, usize), NativeError> {
    let len = vm.array_items(array).ok_or_else(nre)?.len();
    let start = usize::try_from(offset).map_err(|_| nre())?;
    let n = usize::try_from(count).map_err(|_| nre())?;
    if start.checked_add(n).is_none_or(|end| end > len) {
        return Err(nre());
    }
    Ok((start, n))
}

/// `Read(handle, buffer, offset, count, fileOffset)`: bytes read (0 at the end), or minus
/// the error number.
fn read(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (buffer, position) = (arg(args, 1), arg(args, 4).as_i64().unwrap_or(0));
    let (start, n) = byte_range(vm, buffer, int_arg(args, 2), int_arg(args, 3))?;
    let Some(file) = file_mut(vm, arg(args, 0))? else { return Ok(Value::I32(-EIO)) };
    let mut bytes = vec![0u8; n];
    let got = match file.seek(SeekFrom::Start(u64::try_from(position).unwrap_or(0))).and_then(|_| file.read(&mut bytes)) {
        Ok(got) => got,
        Err(e) => return Ok(Value::I32(-errno(&e))),
    };
    let target = buffer.gc_ref().and_then(|r| vm.heap.get_mut(r));
    let Some(Obj::Array(a)) = target else { return Err(nre()) };
    for (slot, b) in a.items[start..start + got].iter_mut().zip(&bytes) {
        *slot = Value::U8(*b);
    }
    Ok(Value::I32(i32::try_from(got).unwrap_or(i32::MAX)))
}

/// `Write(handle, buffer, offset, count, fileOffset)`: 0, or minus the error number.
fn write(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (buffer, position) = (arg(args, 1), arg(args, 4).as_i64().unwrap_or(0));
    let (start, n) = byte_range(vm, buffer, int_arg(args, 2), int_arg(args, 3))?;
    let bytes: Vec<u8> = vm.array_items(buffer).ok_or_else(nre)?[start..start + n]
        .iter()
        .map(|v| match v {
            Value::U8(b) => *b,
            _ => 0,
        })
        .collect();
    let Some(file) = file_mut(vm, arg(args, 0))? else { return Ok(Value::I32(-EIO)) };
    match file.seek(SeekFrom::Start(u64::try_from(position).unwrap_or(0))).and_then(|_| file.write_all(&bytes)) {
        Ok(()) => Ok(Value::I32(0)),
        Err(e) => Ok(Value::I32(-errno(&e))),
    }
}

/// The file's length in bytes (-1 if it cannot be read).
fn length(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(file) = file_mut(vm, arg(args, 0))? else { return Ok(Value::I64(-1)) };
    Ok(Value::I64(file.metadata().map_or(-1, |m| i64::try_from(m.len()).unwrap_or(i64::MAX))))
}

fn close(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(Obj::Native(n)) = arg(args, 0).gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        if let NativeData::File(f) = n.as_mut() {
            *f = None;
        }
    }
    Ok(Value::Null)
}

/// `Delete(path)`: 0 (also when there is no such file, as .NET's File.Delete), or the error.
fn delete(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(Value::I32(0)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Value::I32(if missing_error(&path) == ENOENT { 0 } else { ENOTDIR })),
        Err(e) => Ok(Value::I32(errno(&e))),
    }
}

fn exists(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(path) = vm.string_of(arg(args, 0)) else { return Ok(Value::Bool(false)) };
    Ok(Value::Bool(std::path::Path::new(&path).is_file()))
}

/// The temporary folder, with a trailing `/` (`TMPDIR`, else `/tmp/`), as `Path.GetTempPath`.
fn temp_path(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let mut dir = std::env::temp_dir().to_string_lossy().into_owned();
    if !dir.ends_with('/') {
        dir.push('/');
    }
    Ok(vm.new_str(&dir))
}

/// A new empty file `tmpXXXXXX.tmp` in the temporary folder (as .NET's mkstemps makes);
/// null if none could be created.
fn create_temp_file(vm: &mut Vm, _: &[Value]) -> NativeResult {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let dir = std::env::temp_dir();
    for _ in 0..100 {
        let name: String = (0..6).map(|_| char::from(CHARS[vm.sched.next_random() as usize % CHARS.len()])).collect();
        let path = dir.join(format!("tmp{name}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(_) => return Ok(vm.new_str(&path.to_string_lossy())),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(_) => return Ok(Value::Null),
        }
    }
    Ok(Value::Null)
}

/// The result of a file-system operation as the cs-lite side takes it: 0, or the error number.
fn status(result: std::io::Result<()>) -> NativeResult {
    Ok(Value::I32(result.err().map_or(0, |e| errno(&e))))
}

fn directory_exists(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(path) = vm.string_of(arg(args, 0)) else { return Ok(Value::Bool(false)) };
    Ok(Value::Bool(std::path::Path::new(&path).is_dir()))
}

/// `CreateDirectory(path)`: the folder and every missing parent; 0 or the error number.
fn create_directory(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    status(std::fs::create_dir_all(&path))
}

/// `DeleteDirectory(path, recursive)`: 0 or the error number (ENOTEMPTY for a folder
/// with entries when not recursive, ENOTDIR when it is missing).
fn delete_directory(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let recursive = matches!(arg(args, 1), Value::Bool(true));
    if !std::path::Path::new(&path).is_dir() {
        return Ok(Value::I32(ENOTDIR));
    }
    let result = if recursive { std::fs::remove_dir_all(&path) } else { std::fs::remove_dir(&path) };
    match result {
        Err(e) if e.kind() == ErrorKind::DirectoryNotEmpty => Ok(Value::I32(ENOTEMPTY)),
        other => status(other),
    }
}

/// `List(path, kinds)`: the paths of the folder's entries (kinds: 1 files, 2 folders, 3
/// both), `path` joined to each name, sorted by name (.NET gives the OS's order, which no
/// program can rely on); the error number (an int) if the folder cannot be read.
fn list(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let kinds = int_arg(args, 1);
    let entries = match std::fs::read_dir(&path) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Value::I32(ENOTDIR)),
        Err(e) => return Ok(Value::I32(errno(&e))),
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if is_dir {
                kinds & 2 != 0
            } else {
                kinds & 1 != 0
            }
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let separator = if path.ends_with('/') { "" } else { "/" };
    let paths: Vec<String> = names.iter().map(|n| format!("{path}{separator}{n}")).collect();
    Ok(vm.new_string_array(&paths))
}

/// `Move(source, destination, overwrite)`: 0 or the error number (EEXIST when the
/// destination exists and may not be replaced).
fn move_file(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (source, destination) = (vm.string_arg(arg(args, 0), "sourceFileName")?, vm.string_arg(arg(args, 1), "destFileName")?);
    if let Some(error) = transfer_error(&source, &destination, matches!(arg(args, 2), Value::Bool(true))) {
        return Ok(Value::I32(error));
    }
    status(std::fs::rename(&source, &destination))
}

/// `Copy(source, destination, overwrite)`: 0 or the error number.
fn copy_file(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (source, destination) = (vm.string_arg(arg(args, 0), "sourceFileName")?, vm.string_arg(arg(args, 1), "destFileName")?);
    if let Some(error) = transfer_error(&source, &destination, matches!(arg(args, 2), Value::Bool(true))) {
        return Ok(Value::I32(error));
    }
    status(std::fs::copy(&source, &destination).map(|_| ()))
}

/// Why a file cannot be moved or copied from `source` to `destination`, checked before
/// trying: a missing source, or a destination that exists and may not be replaced.
fn transfer_error(source: &str, destination: &str, overwrite: bool) -> Option<i32> {
    if !std::path::Path::new(source).is_file() {
        return Some(missing_error(source));
    }
    (!overwrite && std::path::Path::new(destination).exists()).then_some(EEXIST)
}

fn current_directory(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let dir = std::env::current_dir().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(vm.new_str(&dir))
}

/// The length of the file at `path`, or -1 if there is no such file.
fn file_length(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let length = std::fs::metadata(&path).ok().filter(|m| m.is_file()).map_or(-1, |m| i64::try_from(m.len()).unwrap_or(i64::MAX));
    Ok(Value::I64(length))
}
