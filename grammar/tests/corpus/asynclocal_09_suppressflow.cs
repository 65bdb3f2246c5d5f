// AsyncLocal article (seed 000), fragment 9 (wrapped in Program): SuppressFlow around Task.Run.
using System;
using System.Threading;
using System.Threading.Tasks;

internal static class Program
{
    private static readonly AsyncLocal<string?> RequestId = new();
    private static async Task ExampleAsync()
    {
        RequestId.Value = "request-42";
        Task background;
        using (ExecutionContext.SuppressFlow())
        {
            background = Task.Run(() =>
                Console.WriteLine(RequestId.Value ?? "<empty>"));
        }
        await background;
        Console.WriteLine(RequestId.Value); // request-42
    }

    private static async Task Main() => await ExampleAsync();
}
