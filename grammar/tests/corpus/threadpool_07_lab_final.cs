// Thread-pool chapter (seed 004), program 7: the lab final program (modes starve, coop-off, queues, io).
// Глава 13, итог. Режимы (dotnet run -c Release --project final -- <режим>):
//   starve   (по умолчанию) — «секунда ожидания» тремя способами: Thread.Sleep, Task.Wait, Task.Delay;
//   coop-off — то же, но с выключенной «кооперативной блокировкой» пула (поймёте, чем Wait отличается от Sleep);
//   queues   — глобальная и локальные очереди, LIFO владельца и кража работы;
//   io       — занят весь пул: завершаются ли чтения из сокета и файла (Linux).
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

string mode = args.FirstOrDefault() ?? "starve";
switch (mode)
{
    case "starve":
        await Starve();
        break;
    case "coop-off":
        // Переключатель читается один раз, при первом обращении к пулу: ставим его до любого Task.Run.
        AppContext.SetSwitch("System.Threading.ThreadPool.Blocking.CooperativeBlocking", false);
        await Starve();
        break;
    case "queues":
        Queues();
        break;
    case "io":
        Io();
        break;
}

static async Task Starve()
{
    ThreadPool.SetMinThreads(4, 4);
    Console.WriteLine($"MinThreads=4, процессоров={Environment.ProcessorCount}");

    await Measure("БЛОКИРУЮЩИЕ   ", () => Task.Run(() => Thread.Sleep(1000)));
    await Measure("SYNC-OVER-ASYNC", () => Task.Run(() => Task.Delay(1000).Wait()));
    await Measure("АСИНХРОННЫЕ   ", () => Task.Delay(1000));
}

static async Task Measure(string title, Func<Task> oneSecond)
{
    var sw = Stopwatch.StartNew();
    var stop = false;
    var monitor = new Thread(() =>
    {
        while (!Volatile.Read(ref stop))
        {
            Console.WriteLine($"  t={sw.Elapsed.TotalSeconds:F1}s потоков={ThreadPool.ThreadCount}, в очереди={ThreadPool.PendingWorkItemCount}");
            Thread.Sleep(1000);
        }
    }) { IsBackground = true };
    monitor.Start();

    await Task.WhenAll(Enumerable.Range(0, 32).Select(_ => oneSecond()));
    Volatile.Write(ref stop, true);
    Console.WriteLine($"{title} 32 x 1с : {sw.Elapsed.TotalSeconds:F1} с, потоков в пуле {ThreadPool.ThreadCount}");
    Console.WriteLine();
}

// Рабочий поток W кладёт пять элементов в свою локальную очередь (L0..L4) и пять в глобальную (G0..G4).
static void Queues()
{
    var log = new ConcurrentQueue<string>();
    var done = new CountdownEvent(1 + 5 + 5);
    void Item(string name) { log.Enqueue($"{name}@{Environment.CurrentManagedThreadId}"); Thread.Sleep(30); done.Signal(); }

    ThreadPool.UnsafeQueueUserWorkItem<object?>(_ =>
    {
        log.Enqueue($"W@{Environment.CurrentManagedThreadId}");
        for (int i = 0; i < 5; i++) { int k = i; ThreadPool.UnsafeQueueUserWorkItem<object?>(_ => Item($"L{k}"), null, preferLocal: true); }
        for (int i = 0; i < 5; i++) { int k = i; ThreadPool.UnsafeQueueUserWorkItem<object?>(_ => Item($"G{k}"), null, preferLocal: false); }
        done.Signal();
    }, null, preferLocal: false);

    done.Wait();
    Console.WriteLine(string.Join("  ", log));
}

// Весь пул (число потоков = числу ядер — минимально допустимый максимум) занят. Кто из ввода-вывода всё равно завершится?
static void Io()
{
    var path = Path.GetTempFileName();
    File.WriteAllBytes(path, new byte[1 << 20]);
    int n = Environment.ProcessorCount;                      // меньше числа ядер SetMaxThreads не примет
    Console.WriteLine($"SetMaxThreads({n},{n}) = {ThreadPool.SetMaxThreads(n, n)}");

    using var gate = new ManualResetEventSlim();
    using var started = new CountdownEvent(n);
    for (int i = 0; i < n; i++)
        ThreadPool.UnsafeQueueUserWorkItem<object?>(_ => { started.Signal(); gate.Wait(); }, null, false);
    started.Wait();
    Console.WriteLine("все потоки пула заняты");

    var listener = new TcpListener(IPAddress.Loopback, 0);
    listener.Start();
    using var client = new TcpClient();
    client.Connect(IPAddress.Loopback, ((IPEndPoint)listener.LocalEndpoint).Port);
    using var server = listener.AcceptTcpClient();
    ValueTask<int> socketRead = client.GetStream().ReadAsync(new byte[16]);
    server.GetStream().WriteByte(1);                         // данные уже у нас в ядре
    Thread.Sleep(500);
    Console.WriteLine($"сокет: чтение завершено при занятом пуле = {socketRead.IsCompleted}");

    var fs = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1, useAsync: true);
    ValueTask<int> fileRead = fs.ReadAsync(new byte[4096]);
    Thread.Sleep(500);
    Console.WriteLine($"файл (useAsync: true): чтение завершено при занятом пуле = {fileRead.IsCompleted}");

    gate.Set();                                              // освободили пул
    Thread.Sleep(200);
    Console.WriteLine($"после освобождения пула: сокет = {socketRead.IsCompleted}, файл = {fileRead.IsCompleted}");
    fs.Dispose();                                            // Windows не даст удалить открытый файл
    File.Delete(path);
}
