// AsyncLocal article (seed 000), fragment 6 (wrapped in Program): a shared Holder mutated by a child task.
using System;
using System.Threading;
using System.Threading.Tasks;

internal static class Program
{
    private sealed class Holder
    {
        public string? Value { get; set; }
    }
    private static readonly AsyncLocal<Holder?> Current = new();
    private static async Task ExampleAsync()
    {
        Current.Value = new Holder { Value = "A" };
        await Task.Run(() => Current.Value!.Value = "B");
        Console.WriteLine(Current.Value!.Value); // B
    }

    private static async Task Main() => await ExampleAsync();
}
