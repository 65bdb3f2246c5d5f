// AsyncLocal article (seed 000), program 8: change notifications with Capture/Run.
using System;
using System.Threading;
var local = new AsyncLocal<string?>(change =>
    Console.WriteLine($"{change.PreviousValue ?? "<null>"} -> " +
    $"{change.CurrentValue ?? "<null>"}; " +
    $"上下文切换: {change.ThreadContextChanged}"));
local.Value = "A";
ExecutionContext captured = ExecutionContext.Capture()!;
local.Value = null;
ExecutionContext.Run(captured, _ => local.Value = "B", null);
