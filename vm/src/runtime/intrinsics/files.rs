//! The file intrinsics behind `System.IO` (`FileNative` in `stdlib/System/IO/File.cs-lite`):
//! files opened, read and written at an offset (as `pread`/`pwrite`), closed, deleted, and
//! temporary files created, all through the VM's `FileSystem` (`runtime/file_system/`: the
//! host's files, or `--sandbox`'s in memory). An open file is a heap object
//! (`NativeData::File`), so a stream nobody closes is closed by the collector, as a
//! `SafeFileHandle`'s finalizer would. Failures are returned as the OS error number; the
//! cs-lite side turns them into .NET's exceptions and messages.

use super::support::{arg, int_arg, nre};
use crate::runtime::file_system::{FsResult, OpenFile, OpenMode, EEXIST, EIO};
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

/// `Open(path, mode, access)`: mode is `FileMode`, access `FileAccess` (see [`OpenMode`]).
/// Returns the open file, or the error number as an `int`.
fn open(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let how = OpenMode { mode: int_arg(args, 1), access: int_arg(args, 2) };
    match vm.files.open(&path, how) {
        Ok(file) => Ok(Value::Ref(vm.heap.alloc(Obj::Native(Box::new(NativeData::File(Some(file))))))),
        Err(errno) => Ok(Value::I32(errno)),
    }
}

/// The open file behind a handle (`None` once closed).
fn file_mut(vm: &mut Vm, handle: Value) -> Result<Option<&mut Box<dyn OpenFile>>, NativeError> {
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
    let got = match file.read_at(u64::try_from(position).unwrap_or(0), &mut bytes) {
        Ok(got) => got,
        Err(errno) => return Ok(Value::I32(-errno)),
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
    match file.write_at(u64::try_from(position).unwrap_or(0), &bytes) {
        Ok(()) => Ok(Value::I32(0)),
        Err(errno) => Ok(Value::I32(-errno)),
    }
}

/// The file's length in bytes (-1 if it cannot be read).
fn length(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(file) = file_mut(vm, arg(args, 0))? else { return Ok(Value::I64(-1)) };
    Ok(Value::I64(file.byte_length().map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX))))
}

fn close(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(Obj::Native(n)) = arg(args, 0).gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        if let NativeData::File(f) = n.as_mut() {
            *f = None;
        }
    }
    Ok(Value::Null)
}

/// The result of a file-system operation as the cs-lite side takes it: 0, or the error number.
fn status(result: FsResult<()>) -> NativeResult {
    Ok(Value::I32(result.err().unwrap_or(0)))
}

/// `Delete(path)`: 0 (also when there is no such file, as .NET's File.Delete), or the error.
fn delete(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    status(vm.files.delete(&path))
}

fn exists(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(path) = vm.string_of(arg(args, 0)) else { return Ok(Value::Bool(false)) };
    Ok(Value::Bool(vm.files.file_exists(&path)))
}

/// The temporary folder, with a trailing `/`, as `Path.GetTempPath`.
fn temp_path(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let dir = vm.files.temp_dir();
    Ok(vm.new_str(&dir))
}

/// A new empty file `tmpXXXXXX.tmp` in the temporary folder (as .NET's mkstemps makes);
/// null if none could be created.
fn create_temp_file(vm: &mut Vm, _: &[Value]) -> NativeResult {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let dir = vm.files.temp_dir();
    for _ in 0..100 {
        let name: String = (0..6).map(|_| char::from(CHARS[vm.sched.next_random() as usize % CHARS.len()])).collect();
        let path = format!("{dir}tmp{name}.tmp");
        match vm.files.create_new(&path) {
            Ok(()) => return Ok(vm.new_str(&path)),
            Err(EEXIST) => {}
            Err(_) => return Ok(Value::Null),
        }
    }
    Ok(Value::Null)
}

fn directory_exists(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(path) = vm.string_of(arg(args, 0)) else { return Ok(Value::Bool(false)) };
    Ok(Value::Bool(vm.files.directory_exists(&path)))
}

/// `CreateDirectory(path)`: the folder and every missing parent; 0 or the error number.
fn create_directory(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    status(vm.files.create_directory(&path))
}

/// `DeleteDirectory(path, recursive)`: 0 or the error number (ENOTEMPTY for a folder
/// with entries when not recursive, ENOTDIR when it is missing).
fn delete_directory(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let recursive = matches!(arg(args, 1), Value::Bool(true));
    status(vm.files.delete_directory(&path, recursive))
}

/// `List(path, kinds)`: the paths of the folder's entries (kinds: 1 files, 2 folders, 3
/// both), `path` joined to each name, sorted by name (.NET gives the OS's order, which no
/// program can rely on); the error number (an int) if the folder cannot be read.
fn list(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let names = match vm.files.list(&path, int_arg(args, 1)) {
        Ok(names) => names,
        Err(errno) => return Ok(Value::I32(errno)),
    };
    let separator = if path.ends_with('/') { "" } else { "/" };
    let paths: Vec<String> = names.iter().map(|n| format!("{path}{separator}{n}")).collect();
    Ok(vm.new_string_array(&paths))
}

/// `Move(source, destination, overwrite)`: 0 or the error number (EEXIST when the
/// destination exists and may not be replaced).
fn move_file(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (source, destination) = (vm.string_arg(arg(args, 0), "sourceFileName")?, vm.string_arg(arg(args, 1), "destFileName")?);
    if taken(vm, &source, &destination, matches!(arg(args, 2), Value::Bool(true))) {
        return Ok(Value::I32(EEXIST));
    }
    status(vm.files.rename(&source, &destination))
}

/// `Copy(source, destination, overwrite)`: 0 or the error number.
fn copy_file(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (source, destination) = (vm.string_arg(arg(args, 0), "sourceFileName")?, vm.string_arg(arg(args, 1), "destFileName")?);
    if taken(vm, &source, &destination, matches!(arg(args, 2), Value::Bool(true))) {
        return Ok(Value::I32(EEXIST));
    }
    status(vm.files.copy(&source, &destination))
}

/// Whether a move or copy must fail because `destination` exists and may not be replaced
/// (checked after the source: a missing source is the file system's error).
fn taken(vm: &Vm, source: &str, destination: &str, overwrite: bool) -> bool {
    let exists = vm.files.file_exists(destination) || vm.files.directory_exists(destination);
    !overwrite && vm.files.file_exists(source) && exists
}

fn current_directory(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let dir = vm.files.current_directory();
    Ok(vm.new_str(&dir))
}

/// The length of the file at `path`, or -1 if there is no such file.
fn file_length(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let path = vm.string_arg(arg(args, 0), "path")?;
    let length = vm.files.file_length(&path).map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));
    Ok(Value::I64(length))
}
