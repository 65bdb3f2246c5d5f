// AsyncLocal article (seed 000), program 1: RequestId flows into Task.Run and across await.
using System;
using System.Threading;
using System.Threading.Tasks;
internal static class Program
{
    private static readonly AsyncLocal<string?> RequestId = new();
    private static async Task Main()
    {
        RequestId.Value = "request-42";
        await Task.Run(() =>
            Console.WriteLine($"Task.Run: {RequestId.Value}"));
        await PrintAfterAwaitAsync();
        Console.WriteLine($"Main: {RequestId.Value}");
    }
    private static async Task PrintAfterAwaitAsync()
    {
        await Task.Delay(10);
        Console.WriteLine($"await 后: {RequestId.Value}");
    }
}
