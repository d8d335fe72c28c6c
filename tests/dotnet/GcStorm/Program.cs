// usage: GcStorm PORT LIVE_MB QUIET_SECONDS STORM_SECONDS
// A Server GC service in a GC storm. It first builds LIVE_MB of small live
// objects (40-byte nodes in arrays of a million), prints "ready", stays
// quiet for QUIET_SECONDS, then for STORM_SECONDS replaces 500,000 live
// nodes a second at random (old objects die, young ones survive into gen2;
// 20 MB/s) and forces a blocking, compacting full collection 1 s after the
// one before ended: each marks and moves the whole live heap, which on a
// starved CPU takes seconds. Then it is quiet again. SIGTERM ends it.
// GET / allocates 200 KB in 10 KB arrays and one 2 MB array (the large
// object heap) and answers "ok".
//
// Its truth: a JSON line every 50 ms, from a thread of its own (so none
// while the runtime is suspended), stamped with the wall clock: the
// runtime's pause total (GC.GetTotalPauseDuration), its longest single
// pause so far (the last GC's, GC.GetGCMemoryInfo), its GC count and the
// requests answered. Phases are printed as {"phase":NAME,"wall_ms":...}.
using System.Diagnostics;

var port = args.Length > 0 ? int.Parse(args[0]) : 5000;
int liveMb = args.Length > 1 ? int.Parse(args[1]) : 1024;
double quiet = args.Length > 2 ? double.Parse(args[2]) : 3;
double storm = args.Length > 3 ? double.Parse(args[3]) : 20;

long requests = 0;
long longestPause = 0;
var live = Live.Build(liveMb);
GC.Collect(2, GCCollectionMode.Forced, true, true);

var builder = WebApplication.CreateSlimBuilder(args);
builder.Logging.ClearProviders();
builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
var app = builder.Build();
object? keep = null;
app.MapGet("/", () =>
{
    for (int done = 0; done < 200_000; done += 10_000)
        keep = new byte[10_000 - 24];
    keep = new byte[2_000_000];
    Interlocked.Increment(ref requests);
    return "ok";
});
await app.StartAsync();

void Report()
{
    var info = GC.GetGCMemoryInfo(GCKind.Any);
    foreach (var p in info.PauseDurations)
        if (p.Ticks * 100 > longestPause)
            longestPause = p.Ticks * 100;
    Console.WriteLine("{{\"wall_ms\":{0},\"pause_ns\":{1},\"longest_ns\":{2},\"gcs\":{3},\"requests\":{4}}}",
        DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(), (long)(GC.GetTotalPauseDuration().Ticks * 100), longestPause,
        GC.CollectionCount(0), Interlocked.Read(ref requests));
}
void Phase(string name) =>
    Console.WriteLine("{{\"phase\":\"{0}\",\"wall_ms\":{1}}}", name, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());

var reporter = new Thread(() => { while (true) { Report(); Thread.Sleep(50); } }) { IsBackground = true };
reporter.Start();
var phases = new Thread(() =>
{
    Console.WriteLine("ready");
    Thread.Sleep(TimeSpan.FromSeconds(quiet));
    Phase("storm_start");
    var rnd = new Random(42);
    var watch = Stopwatch.StartNew();
    double nextFull = 2;
    while (watch.Elapsed.TotalSeconds < storm)
    {
        live.Replace(rnd, 5_000);
        if (watch.Elapsed.TotalSeconds >= nextFull)
        {
            GC.Collect(2, GCCollectionMode.Forced, true, true);
            // the program runs between two of them
            nextFull = watch.Elapsed.TotalSeconds + 1;
        }
        Thread.Sleep(10);
    }
    Phase("storm_end");
    Thread.Sleep(TimeSpan.FromSeconds(quiet));
    Phase("quiet_end");
}) { IsBackground = true };
phases.Start();
// SIGTERM stops the host, and the program with it
await app.WaitForShutdownAsync();

sealed class Node
{
    public Node? Next;
    public long A, B;
}

sealed class Live
{
    const int Chunk = 1 << 20;
    readonly Node[][] chunks;

    Live(Node[][] c) => chunks = c;

    // ~40 bytes a node with its slot in the array
    public static Live Build(int mb)
    {
        long nodes = (long)mb * 1024 * 1024 / 40;
        var c = new Node[(int)((nodes + Chunk - 1) / Chunk)][];
        for (int i = 0; i < c.Length; i++)
        {
            c[i] = new Node[Chunk];
            Node? prev = null;
            for (int j = 0; j < Chunk; j++)
                prev = c[i][j] = new Node { Next = prev, A = j };
        }
        return new Live(c);
    }

    public void Replace(Random rnd, int n)
    {
        for (int k = 0; k < n; k++)
        {
            var c = chunks[rnd.Next(chunks.Length)];
            int j = rnd.Next(Chunk);
            c[j] = new Node { Next = c[(j + 1) % Chunk], A = k };
        }
    }
}
