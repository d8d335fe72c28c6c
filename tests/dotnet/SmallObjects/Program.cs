// Holds about MiB mebibytes of small live objects (a 40-byte node linking a
// byte[] of 32-95 bytes: about 2 objects per 100 bytes), collects, prints
// "ready <objects>", then sleeps SECONDS. Usage: SmallObjects MiB SECONDS
using System;
using System.Threading;

sealed class Node
{
    public Node? Next;
    public byte[] Data;
    public Node(int n) { Data = new byte[n]; }
}

static class Program
{
    static Node? head;

    static void Main(string[] args)
    {
        long target = long.Parse(args[0]) << 20, bytes = 0, pairs = 0;
        int seconds = int.Parse(args[1]);
        while (bytes < target)
        {
            int n = 32 + (int)(pairs % 64);
            head = new Node(n) { Next = head };
            bytes += 40 + 24 + n;
            pairs++;
        }
        GC.Collect();
        Console.WriteLine($"ready {2 * pairs}");
        Thread.Sleep(seconds * 1000);
        GC.KeepAlive(head);
    }
}
