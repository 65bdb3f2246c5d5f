// AsyncLocal article (seed 000), program 11: suppressed flow and an inline continuation.
using System;
using System.Threading;
using System.Threading.Tasks;
var value = new AsyncLocal<string?>();
var gate = new TaskCompletionSource();
async Task ChildAsync()
{
    await gate.Task;
    Console.WriteLine($"子方法恢复后: {value.Value}");
    value.Value = "child";
}
Task child;
using (ExecutionContext.SuppressFlow())
{
    child = ChildAsync();
}
value.Value = "caller";
gate.SetResult();
Console.WriteLine($"SetResult 返回后: {value.Value}");
await child;
