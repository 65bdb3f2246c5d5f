// Runtime-async article (seed 001): the C#-style pseudo-code of a runtime-async call (wrapped in a method).
class Sketch
{
    int Step(int n)
    {
        var (result1, continuation1) = Fib(null, n - 1);

        if (continuation1 != null)
            Suspend(continuation1);

        var (result2, continuation2) = Fib(null, n - 2);

        if (continuation2 != null)
            Suspend(continuation2);

        return result1 + result2;
    }
}
