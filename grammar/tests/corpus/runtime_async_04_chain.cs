// Runtime-async article (seed 001), listing 4: a chain that never suspends (wrapped in a class).
using System.Threading.Tasks;

class Sample
{
    public async Task<int> GetDataAsync()
    {
        return await GetValueAsync();
    }

    public async Task<int> GetValueAsync()
    {
        return 42;
    }
}
