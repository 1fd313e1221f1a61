#!/usr/bin/env bash
# NVRTC spill sweep over random lengths (seed 20261127): fp64 C2C, fp32 R2C
# (odd and even), fp32 C2C primes (Bluestein / Rader), fp16 C2C.
cd /work/main
B=build/apps/bfly/bfly
python3 - > /tmp/sweep/cases.txt <<'PY'
import random
r = random.Random(20261127)
def smooth(n, ps=(2,3,5,7,11,13)):
    for p in ps:
        while n % p == 0: n //= p
    return n == 1
def prime(n):
    if n < 2: return False
    i = 2
    while i * i <= n:
        if n % i == 0: return False
        i += 1
    return True
sm = [n for n in range(1000, 40000) if smooth(n)]
pr = [n for n in range(1000, 1 << 20) if n % 2 and prime(n)] if False else None
out = []
for n in r.sample(sm, 40): out.append(f"c2c_f64_fwd_{n}_b{max(1, 33554432 // n)}_oop_none")
odd = [n for n in range(101, 40000, 2) if smooth(n)]
for n in r.sample(odd, 20): out.append(f"r2c_f32_fwd_{n}_b{max(1, 67108864 // n)}_oop_none")
even = [n for n in range(100, 40000, 2) if smooth(n)]
for n in r.sample(even, 20): out.append(f"r2c_f32_fwd_{n}_b{max(1, 67108864 // n)}_oop_none")
ps = []
while len(ps) < 20:
    n = r.randrange(1000, 1 << 20) | 1
    if prime(n): ps.append(n)
for n in ps: out.append(f"c2c_f32_fwd_{n}_b{max(1, 67108864 // n)}_oop_none")
for n in r.sample(sm, 20): out.append(f"c2c_f16_fwd_{n}_b{max(1, 67108864 // n)}_oop_none")
print("\n".join(out))
PY
while read -r token; do
  echo "== $token"
  timeout 300 $B plan "$token" --limits hopper --nvrtc sm_90 2>&1 | grep -E "registers|relaunched|kept|no other launch" | sed 's/, compiled in.*//'
done < /tmp/sweep/cases.txt
