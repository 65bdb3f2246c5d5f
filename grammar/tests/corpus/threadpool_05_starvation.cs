// Thread-pool chapter (seed 004), program 5: 32 blocking tasks and a monitor thread.
using System.Diagnostics;

ThreadPool.SetMinThreads(4, 4);               // уменьшим минимум, чтобы эффект был ярче
Console.WriteLine($"MinThreads=4, процессоров={Environment.ProcessorCount}");

var sw = Stopwatch.StartNew();
var stop = false;
var monitor = new Thread(() =>                // отдельный поток: пул занят, мониторить из него нельзя
{
    while (!Volatile.Read(ref stop))
    {
        Console.WriteLine($"  t={sw.Elapsed.TotalSeconds:F1}s потоков={ThreadPool.ThreadCount}, " +
                          $"в очереди={ThreadPool.PendingWorkItemCount}");
        Thread.Sleep(1000);
    }
}) { IsBackground = true };
monitor.Start();

await Task.WhenAll(Enumerable.Range(0, 32).Select(_ => Task.Run(() => Thread.Sleep(1000))));
Volatile.Write(ref stop, true);
Console.WriteLine($"БЛОКИРУЮЩИЕ 32 x 1с : {sw.Elapsed.TotalSeconds:F1} с");
