// AsyncLocal article (seed 000), program 4: a child async method changes the value before its first await.
using System;
using System.Threading;
using System.Threading.Tasks;
internal static class Program
{
    private static readonly AsyncLocal<string?> Name = new();
    private static async Task Main()
    {
        Name.Value = "A";
        var gate = new TaskCompletionSource(
            TaskCreationOptions.RunContinuationsAsynchronously);
        Task child = ChangeAsync(gate.Task);
        Console.WriteLine($"父流程,等待前: {Name.Value}");
        gate.SetResult();
        await child;
        Console.WriteLine($"父流程,等待后: {Name.Value}");
    }
    private static async Task ChangeAsync(Task gate)
    {
        Name.Value = "B";
        Console.WriteLine($"子流程,等待前: {Name.Value}");
        await gate;
        Console.WriteLine($"子流程,等待后: {Name.Value}");
    }
}
