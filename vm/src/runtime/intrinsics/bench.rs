//! `BenchmarkHost`: how `BenchmarkSwitcher.Run` and `BenchmarkRunner.Run<T>` hand the
//! benchmarks over to the bench driver (`crate::bench`), which runs them after `Main`.

use super::objects::type_handle_arg;
use super::support::{arg, null_arg};
use crate::metadata::TypeId;
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// What `Main` asked to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchRequest {
    /// `BenchmarkSwitcher.FromAssembly(...).Run(args)`: every benchmark class.
    Program,
    /// `BenchmarkRunner.Run<T>()`: one class.
    Class(TypeId),
}

pub static ENTRIES: &[NativeEntry] =
    &[NativeEntry { name: "BenchmarkHost.RequestAll", func: request_all }, NativeEntry { name: "BenchmarkHost.Request", func: request_class }];

/// `BenchmarkSwitcher.FromAssembly(...).Run(args)`: every benchmark class of the program.
fn request_all(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.bench_requests.push(BenchRequest::Program);
    Ok(Value::Null)
}

/// `BenchmarkRunner.Run<T>()`: the benchmarks of one class.
fn request_class(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = type_handle_arg(vm, arg(args, 0)).ok_or_else(|| null_arg("type"))?;
    vm.bench_requests.push(BenchRequest::Class(t));
    Ok(Value::Null)
}
