// Runtime-async article (seed 001), listing 1 (wrapped in a class).
using System.Threading.Tasks;

class Sample
{
    public async Task<int> GetDataAsync()
    {
        // 預期是非同步處理，因此等待 1 秒
        await Task.Delay(1000);
        return 42;
    }
}
