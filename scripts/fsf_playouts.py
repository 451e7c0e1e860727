import re, subprocess, random, sys
# Random games played by Fairy-Stockfish's own move lists (go perft 1),
# biased toward drops and promotions.
variants = sys.argv[1].split(',')
games, plies, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# Every how many plies a position is kept (10 unless given).
every = int(sys.argv[5]) if len(sys.argv) > 5 else 10
rng = random.Random(seed)
p = subprocess.Popen(['/opt/fsf/fairy-stockfish'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + '\n'); p.stdin.flush()
def read_until(prefix):
    lines = []
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit('fsf died')
        l = l.strip(); lines.append(l)
        if l.startswith(prefix): return lines
send('uci'); read_until('uciok')
for v in variants:
    send('setoption name UCI_Variant value ' + v)
    for g in range(games):
        moves = []
        for ply in range(plies):
            send('position startpos moves ' + ' '.join(moves)); send('go perft 1')
            lines = read_until('Nodes searched')
            # Only `move: count` lines (what `d` printed after its Sfen line may follow).
            ms = [l.split(':')[0] for l in lines if re.fullmatch(r'\S+: \d+', l) and not l.startswith('Nodes')]
            if not ms: break
            # A promotion ends with a letter (sittuyin's e5e5f) or `+` (shogi).
            fancy = [m for m in ms if '@' in m or m.endswith('+') or m[-1].isalpha()]
            m = rng.choice(fancy) if fancy and rng.random() < 0.35 else rng.choice(ms)
            moves.append(m)
            if ply % every == every - 1 or ply == plies - 1:
                send('position startpos moves ' + ' '.join(moves)); send('d')
                fen = [l for l in read_until('Sfen') if l.startswith('Fen:')][0][5:]
                # `d` prints more after its Sfen line (Key:, Checkers:): read
                # it all here, or the next move list would take it for moves.
                send('isready'); read_until('readyok')
                print(f'{v}|{fen}', flush=True)
send('quit')
