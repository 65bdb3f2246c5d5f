// Runtime-async article (seed 001), listing 6: recursive async Fib.
using System.Threading.Tasks;

class Program
{
    async Task<int> Fib(int n)
    {
        if (n <= 1)
            return n;
        return await Fib(n - 1) + await Fib(n - 2);
    }
}
