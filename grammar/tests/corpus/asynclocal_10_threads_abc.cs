// AsyncLocal article (seed 000), program 10: SuppressFlow with threads A -> B -> C.
using System;
using System.Threading;
internal static class Program
{
    private static readonly AsyncLocal<string?> Value = new();
    private static void Main()
    {
        Value.Value = "A";
        var threadB = new Thread(() =>
        {
            Console.WriteLine($"线程 B: {Value.Value ?? "<empty>"}");
            Value.Value = "B";
            var threadC = new Thread(() =>
                Console.WriteLine($"线程 C: {Value.Value}"));
            threadC.Start();
            threadC.Join();
        });
        using (ExecutionContext.SuppressFlow())
        {
            threadB.Start();
        }
        threadB.Join();
        Console.WriteLine($"线程 A: {Value.Value}");
    }
}
