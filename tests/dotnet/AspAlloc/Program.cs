// usage: AspAlloc PORT [BYTES_PER_REQUEST [ARRAY_BYTES]]
// GET / allocates BYTES_PER_REQUEST (default 1,000,000) in arrays of
// ARRAY_BYTES (default 10,000; 85,000 and more go to the large object heap)
// and answers "ok". GET /truth answers the runtime's own allocated-bytes total.
using System;

var port = args.Length > 0 ? int.Parse(args[0]) : 5000;
long perRequest = args.Length > 1 ? long.Parse(args[1]) : 1_000_000;
int arrayBytes = args.Length > 2 ? int.Parse(args[2]) : 10_000;
var builder = WebApplication.CreateSlimBuilder(args);
builder.Logging.ClearProviders();
builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
var app = builder.Build();
object? keep = null;
app.MapGet("/", () =>
{
    for (long done = 0; done < perRequest; done += arrayBytes)
        keep = new byte[arrayBytes - 24];
    return "ok";
});
app.MapGet("/truth", () => GC.GetTotalAllocatedBytes(true).ToString());
Console.WriteLine("listening");
app.Run();
GC.KeepAlive(keep);
