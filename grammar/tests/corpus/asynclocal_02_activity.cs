// AsyncLocal article (seed 000), program 2: culture and Activity.Current flow into a task.
using System;
using System.Diagnostics;
using System.Globalization;
using System.Threading.Tasks;
CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("zh-CN");
using var request = new Activity("http.request").Start();
await Task.Run(() =>
{
    Console.WriteLine($"当前格式化设置: {CultureInfo.CurrentCulture.Name}");
    Console.WriteLine($"任务开始: {Activity.Current?.OperationName}");
    using (var query = new Activity("db.query").Start())
    {
        Console.WriteLine($"当前操作: {Activity.Current?.OperationName}");
        Console.WriteLine($"父操作: {query.Parent?.OperationName}");
    }
    Console.WriteLine($"子操作结束: {Activity.Current?.OperationName}");
});
Console.WriteLine($"任务结束: {Activity.Current?.OperationName}");
