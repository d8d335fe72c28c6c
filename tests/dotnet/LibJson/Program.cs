// A program whose only work is one application method, Program.Convert,
// handing a tree to Newtonsoft.Json (a NuGet package) and back. The tree is
// DEPTH nodes deep, its leaf holding a 200,000-character string and a
// 50,000-int array: serialized, it is a large string (on the LOH); read
// back, the leaf's string and array (the list's buffers and the result) are
// large objects allocated at the bottom of the library's recursion, some
// hundred frames deep, below the application frame. Every large object is
// allocated inside the library (or the framework under it), so the top
// site is Program.Convert (with Newtonsoft. among the runtime's packages)
// and the stacks behind it are the library's frames up to it. The inputs
// are made once, before the loop; paced to about ROUNDS_PER_SECOND rounds a
// second.
//
// usage: LibJson [ROUNDS_PER_SECOND] [SECONDS]
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using Newtonsoft.Json;

sealed class Node
{
    public string Name { get; set; } = "";
    public Node? Child { get; set; }
    public string? Body { get; set; }
    public int[]? Values { get; set; }
}

static class Program
{
    const int Depth = 20;
    static object? sinkText, sinkTree;

    static void Main(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 40;
        int seconds = args.Length > 1 ? int.Parse(args[1]) : 30;
        var values = new int[50_000];
        for (int i = 0; i < values.Length; i++)
            values[i] = i * 7919;
        var tree = new Node { Name = "leaf", Body = new string('a', 199_990) + "\"\\tail\"\n", Values = values };
        for (int i = 0; i < Depth; i++)
            tree = new Node { Name = "level" + i, Child = tree };
        string treeJson = JsonConvert.SerializeObject(tree);
        // One round before "ready": every method on the path is compiled
        // before gctop attaches (the test turns tiering off), so its names
        // come with the attach's rundown, not with late method loads.
        Convert(tree, treeJson);
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
            Convert(tree, treeJson);
            done++;
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void Convert(Node tree, string treeJson)
    {
        sinkText = JsonConvert.SerializeObject(tree);
        sinkTree = JsonConvert.DeserializeObject<Node>(treeJson);
    }
}
