import RxUV

/// The string, expiry and generic key commands beyond the first set
/// (Commands.swift): Redis 7.0's string group and the key commands that
/// make sense for strings.
extension Commands {
    static let stringCommands: [Command] = [
        Command("setnx", arity: 3, flags: write + ["fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.setnx(args, now: session.commandTime))
        },
        Command("setex", arity: 4, flags: write, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.setex(args, unit: .seconds, command: "setex", now: session.commandTime))
        },
        Command("psetex", arity: 4, flags: write, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.setex(args, unit: .milliseconds, command: "psetex", now: session.commandTime))
        },
        Command("getset", arity: 3, flags: write + ["fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.getset(args, now: session.commandTime))
        },
        Command("getex", arity: -2, flags: ["write", "fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.getex(args, now: session.commandTime))
        },
        Command("msetnx", arity: -3, flags: write, keys: (1, -1, 2)) { session, args in
            session.reply(session.server.keyspace.mset(args, onlyIfNoneExist: true, now: session.commandTime))
        },
        Command("setrange", arity: 4, flags: write, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.setrange(args, now: session.commandTime))
        },
        Command("getrange", arity: 4, flags: ["readonly"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.getrange(args, now: session.commandTime))
        },
        Command("substr", arity: 4, flags: ["readonly"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.getrange(args, now: session.commandTime))
        },
        Command("setbit", arity: 4, flags: write, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.setbit(args, now: session.commandTime))
        },
        Command("getbit", arity: 3, flags: readonly, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.getbit(args, now: session.commandTime))
        },
        Command("incrbyfloat", arity: 3, flags: write + ["fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.incrementByFloat(args, now: session.commandTime))
        },
        Command("lcs", arity: -3, flags: ["readonly"], keys: (1, 1, 1)) { session, args in
            session.reply(LongestCommonSubsequence.reply(args, keyspace: session.server.keyspace, now: session.commandTime))
        },
    ]

    static let keyCommands: [Command] = [
        Command("expire", arity: -3, flags: ["write", "fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.expire(args, unit: .seconds, name: "expire", now: session.commandTime))
        },
        Command("pexpire", arity: -3, flags: ["write", "fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.expire(args, unit: .milliseconds, name: "pexpire", now: session.commandTime))
        },
        Command("expireat", arity: -3, flags: ["write", "fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.expire(args, unit: .unixSeconds, name: "expireat", now: session.commandTime))
        },
        Command("pexpireat", arity: -3, flags: ["write", "fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.expire(args, unit: .unixMilliseconds, name: "pexpireat", now: session.commandTime))
        },
        Command("ttl", arity: 2, flags: readonly, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.ttl(args, unit: .seconds, now: session.commandTime))
        },
        Command("pttl", arity: 2, flags: readonly, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.ttl(args, unit: .milliseconds, now: session.commandTime))
        },
        Command("expiretime", arity: 2, flags: readonly, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.ttl(args, unit: .unixSeconds, now: session.commandTime))
        },
        Command("pexpiretime", arity: 2, flags: readonly, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.ttl(args, unit: .unixMilliseconds, now: session.commandTime))
        },
        Command("persist", arity: 2, flags: ["write", "fast"], keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.persist(args, now: session.commandTime))
        },
        Command("rename", arity: 3, flags: ["write"], keys: (1, 2, 1)) { session, args in
            session.reply(session.server.keyspace.rename(args, onlyIfAbsent: false, now: session.commandTime))
        },
        Command("renamenx", arity: 3, flags: ["write", "fast"], keys: (1, 2, 1)) { session, args in
            session.reply(session.server.keyspace.rename(args, onlyIfAbsent: true, now: session.commandTime))
        },
        Command("copy", arity: -3, flags: write, keys: (1, 2, 1)) { session, args in
            session.reply(session.server.keyspace.copy(args, now: session.commandTime))
        },
        Command("randomkey", arity: 1, flags: ["readonly"]) { session, _ in
            session.reply(session.server.keyspace.randomKey(now: session.commandTime))
        },
        Command("type", arity: 2, flags: readonly, keys: (1, 1, 1)) { session, args in
            session.reply(session.server.keyspace.type(args, now: session.commandTime))
        },
        Command("touch", arity: -2, flags: readonly, keys: (1, -1, 1)) { session, args in
            session.reply(session.server.keyspace.touch(args, now: session.commandTime))
        },
        Command("unlink", arity: -2, flags: ["write", "fast"], keys: (1, -1, 1)) { session, args in
            session.reply(session.server.keyspace.del(args, now: session.commandTime))
        },
        Command("scan", arity: -2, flags: ["readonly"]) { session, args in
            session.reply(session.server.keyspace.scan(args, now: session.commandTime))
        },
        Command("object", arity: -2, flags: ["readonly"]) { session, args in
            session.reply(session.server.keyspace.object(args, now: session.commandTime))
        },
    ]
}
