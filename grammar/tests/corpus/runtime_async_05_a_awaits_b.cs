// Runtime-async article (seed 001), listing 5 (wrapped; B added).
using System.Threading.Tasks;

class Sample
{
    async Task<int> A()
    {
        return await B();
    }

    Task<int> B() => Task.FromResult(1);
}
