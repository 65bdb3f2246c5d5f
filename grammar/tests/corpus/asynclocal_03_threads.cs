// AsyncLocal article (seed 000), program 3: Thread.Start / UnsafeStart / QueueUserWorkItem.
using System;
using System.Threading;
internal static class Program
{
    private static readonly AsyncLocal<string?> RequestId = new();
    private static void Main()
    {
        RequestId.Value = "at-construction";
        var thread = new Thread(() => Print("Thread.Start"));
        RequestId.Value = "at-start";
        thread.Start();
        thread.Join();
        var unsafeThread = new Thread(() => Print("Thread.UnsafeStart"));
        unsafeThread.UnsafeStart();
        unsafeThread.Join();
        RunOnThreadPool(flowContext: true);
        RunOnThreadPool(flowContext: false);
    }
    private static void RunOnThreadPool(bool flowContext)
    {
        using var completed = new ManualResetEventSlim();
        WaitCallback callback = _ =>
        {
            Print(flowContext ? "QueueUserWorkItem" : "UnsafeQueueUserWorkItem");
            completed.Set();
        };
        if (flowContext)
            ThreadPool.QueueUserWorkItem(callback);
        else
            ThreadPool.UnsafeQueueUserWorkItem(callback, null);
        completed.Wait();
    }
    private static void Print(string source) =>
        Console.WriteLine($"{source}: {RequestId.Value ?? "<empty>"}");
}
