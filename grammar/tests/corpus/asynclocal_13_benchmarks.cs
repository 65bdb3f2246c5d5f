// AsyncLocal article (seed 000), program 13: ExecutionContextBenchmarks (BenchmarkDotNet).
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Running;
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
[MemoryDiagnoser]
public class ExecutionContextBenchmarks
{
    private static readonly AsyncLocal<string?> Ambient = new();
    private static readonly Action Noop = static () => { };
    private static readonly Action ReadAmbient = static () => _ = Ambient.Value;
    private static readonly ContextCallback ReadInContext = static _ => _ = Ambient.Value;
    private static readonly string[] Values = ["first", "second"];
    private int _index;
    private ExecutionContext _captured = null!;
    [GlobalSetup]
    public void Setup()
    {
        Ambient.Value = Values[0];
        _captured = ExecutionContext.Capture()!;
        Ambient.Value = null;
    }
    [Benchmark]
    public ExecutionContext? CaptureCurrent() => ExecutionContext.Capture();
    [Benchmark]
    public void SetAsyncLocal()
    {
        _index ^= 1;
        Ambient.Value = Values[_index];
    }
    [Benchmark]
    public void RunCaptured() => ExecutionContext.Run(_captured, ReadInContext, null);
    [Benchmark]
    public Task TaskRunWithoutAsyncLocal() => Task.Run(Noop);
    [Benchmark]
    public async Task TaskRunWithAsyncLocal()
    {
        Ambient.Value = Values[0];
        try
        {
            await Task.Run(ReadAmbient);
        }
        finally
        {
            Ambient.Value = null;
        }
    }
    [Benchmark]
    public async Task AwaitYield()
    {
        await Task.Yield();
    }
}
