// HostileNames SECONDS: defines a type named with a right-to-left override
// (U+202E), a pop directional isolate (U+2069) and the C1 CSI (U+009B),
// then allocates arrays of it (about 40 MB/s) for SECONDS seconds, so that
// the runtime's allocation events name it. Prints the type's name once
// (as JSON, escaped) and then "ready".
using System;
using System.Reflection;
using System.Reflection.Emit;
using System.Threading;

class Program
{
    const string Name = "Evil\u202Etxt.exe\u2069\u009B2J.Type";

    static int Main(string[] args)
    {
        int seconds = args.Length > 0 ? int.Parse(args[0]) : 30;
        var asm = AssemblyBuilder.DefineDynamicAssembly(new AssemblyName("Hostile"), AssemblyBuilderAccess.Run);
        var module = asm.DefineDynamicModule("Hostile");
        var tb = module.DefineType(Name, TypeAttributes.Public | TypeAttributes.Class);
        tb.DefineField("x", typeof(long), FieldAttributes.Public);
        Type t = tb.CreateType()!;
        Console.WriteLine(System.Text.Json.JsonSerializer.Serialize(t.FullName));
        Console.WriteLine("ready");
        Console.Out.Flush();
        var keep = new Array[16];
        var end = DateTime.UtcNow.AddSeconds(seconds);
        long n = 0;
        while (DateTime.UtcNow < end)
        {
            // 4096 references: 32 KiB an array; 1280 a second is 40 MB/s
            for (int i = 0; i < 64; i++)
                keep[(n++) & 15] = Array.CreateInstance(t, 4096);
            Thread.Sleep(50);
        }
        return keep.Length > 0 ? 0 : 1;
    }
}
