// A background thread awake every millisecond that keeps the longest time
// it stood still: every pause of the program is at least that long, so it
// is the program's own measure of what a pause cost it. Shared by
// tests/dotnet/CensusLeak and bench/dotnet/CensusFill (linked there).
using System.Diagnostics;
using System.Threading;

static class StallTicker
{
    static long maxGapTicks, rounds;

    public static void Start() => new Thread(Run) { IsBackground = true }.Start();

    // The longest stall since the last call, in microseconds. The ticker
    // records a stall only once it runs again, maybe after the caller woke
    // from the same pause: two more of its rounds and the stall is surely in.
    public static double TakeGapUs()
    {
        long r0 = Interlocked.Read(ref rounds);
        while (Interlocked.Read(ref rounds) < r0 + 2)
            Thread.Sleep(1);
        return Interlocked.Exchange(ref maxGapTicks, 0) * 1e6 / Stopwatch.Frequency;
    }

    static void Run()
    {
        long last = Stopwatch.GetTimestamp();
        for (;;)
        {
            Thread.Sleep(1);
            long now = Stopwatch.GetTimestamp(), gap = now - last, seen;
            last = now;
            while (gap > (seen = Interlocked.Read(ref maxGapTicks)) &&
                   Interlocked.CompareExchange(ref maxGapTicks, gap, seen) != seen) { }
            Interlocked.Increment(ref rounds);
        }
    }
}
