// AsyncLocal article (seed 000), program 7 (described in prose, written as a program):
// an HttpContextAccessor-style holder. The child clears the old holder before installing
// its own, so the parent, still pointing at the old holder, then reads null.
using System;
using System.Threading;
using System.Threading.Tasks;

internal sealed class Context
{
    public Context(string name) => Name = name;
    public string Name { get; }
    public override string ToString() => Name;
}

internal sealed class ContextAccessor
{
    private sealed class Holder
    {
        public Context? Context;
    }

    private static readonly AsyncLocal<Holder?> Current = new();

    public Context? Context
    {
        get => Current.Value?.Context;
        set
        {
            var holder = Current.Value;
            if (holder != null)
            {
                // Clear the old holder: every context that still shares it sees the change.
                holder.Context = null;
            }
            if (value != null)
            {
                Current.Value = new Holder { Context = value };
            }
        }
    }
}

internal static class Program
{
    private static readonly ContextAccessor Accessor = new();

    private static async Task Main()
    {
        Accessor.Context = new Context("A");
        Console.WriteLine($"parent before: {Accessor.Context?.Name ?? "null"}");
        await ChildAsync();
        Console.WriteLine($"parent after: {Accessor.Context?.Name ?? "null"}");
    }

    private static async Task ChildAsync()
    {
        Accessor.Context = new Context("B");
        await Task.Yield();
        Console.WriteLine($"child: {Accessor.Context?.Name ?? "null"}");
    }
}
