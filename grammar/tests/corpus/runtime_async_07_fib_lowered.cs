// Runtime-async article (seed 001), listing 7: the runtime-async form shown by ILSpy.
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

internal class Program
{
    [MethodImpl(MethodImplOptions.Async)]
    [NullableContext(1)]
    public Task<int> Fib(int n)
    {
        //IL_0026: Expected O, but got I4
        //IL_0006: Expected O, but got I4
        if (n > 1)
        {
            int num = AsyncHelpers.Await(Fib(n - 1));
            int num2 = AsyncHelpers.Await(Fib(n - 2));
            return (Task<int>)(num + num2);
        }
        return (Task<int>)n;
    }
}
