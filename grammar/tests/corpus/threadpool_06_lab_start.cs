// Thread-pool chapter (seed 004), program 6: the lab start program.
// Глава 13, §13.3. Голодание пула потоков.
// PREDICT: сколько секунд займут 32 блокирующие задачи по 1 с при MinThreads=4?
// TODO 1: перепишите нагрузку так, чтобы она не занимала потоки (Task.Delay), и сравните время.
// TODO 2: замените Thread.Sleep(1000) на Task.Delay(1000).Wait() — предскажите время и число потоков (и проверьте, §13.3).
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
