// AsyncLocal article (seed 000), fragment 5 (wrapped as top-level statements): return a value instead.
using System;
using System.Threading.Tasks;

static async Task<string> GetNameAsync()
{
    await Task.Delay(10);
    return "B";
}
string name = await GetNameAsync(); // B
Console.WriteLine(name);
