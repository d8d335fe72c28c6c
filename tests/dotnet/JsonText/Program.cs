// A top-level program whose local function serializes a record holding a
// large string (200,000 characters, some to be escaped) with
// System.Text.Json, paced to about ROUNDS_PER_SECOND rounds a second. Nearly
// all it allocates is allocated by the serializer (the JSON text it
// returns), so the top site is the local function, Program.<Main>$.Serialize
// in source form, and its top stack runs through System.Text.Json frames.
// The input string is made once, before the loop.
//
// usage: JsonText [ROUNDS_PER_SECOND] [SECONDS]
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Threading;

int rounds = args.Length > 0 ? int.Parse(args[0]) : 100;
int seconds = args.Length > 1 ? int.Parse(args[1]) : 30;
var doc = new Doc { Title = "report", Body = new string('a', 199_990) + "\"\\tail\"\n" };
var clock = Stopwatch.StartNew();
long done = 0;
Console.WriteLine("ready");
Console.Out.Flush();
while (clock.ElapsedMilliseconds < seconds * 1000L)
{
    if (done * 1000 >= clock.ElapsedMilliseconds * rounds)
    {
        Thread.Sleep(2);
        continue;
    }
    Serialize(doc);
    done++;
}

[MethodImpl(MethodImplOptions.NoInlining)]
static void Serialize(Doc d)
{
    Sink.Value = JsonSerializer.Serialize(d);
}

sealed class Doc
{
    public string Title { get; set; } = "";
    public string Body { get; set; } = "";
}

static class Sink
{
    public static object? Value;
}
