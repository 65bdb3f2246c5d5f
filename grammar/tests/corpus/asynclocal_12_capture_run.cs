// AsyncLocal article (seed 000), program 12: explicit Capture + Run with an exception.
using System;
using System.Threading;
var value = new AsyncLocal<string?>();
value.Value = "A";
ExecutionContext captured = ExecutionContext.Capture()
    ?? throw new InvalidOperationException("无法捕获执行上下文");
value.Value = "B";
Console.WriteLine($"Run 之前: {value.Value}");
try
{
    ExecutionContext.Run(captured, _ =>
    {
        Console.WriteLine($"进入回调: {value.Value}");
        value.Value = "C";
        Console.WriteLine($"修改之后: {value.Value}");
        throw new InvalidOperationException("回调失败");
    }, null);
}
catch (InvalidOperationException)
{
    Console.WriteLine($"捕获异常: {value.Value}");
}
Console.WriteLine($"Run 之后: {value.Value}");
