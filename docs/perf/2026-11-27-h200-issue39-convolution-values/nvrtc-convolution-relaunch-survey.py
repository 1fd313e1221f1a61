import random, subprocess, sys, re
from concurrent.futures import ThreadPoolExecutor
def isprime(n):
    return n>1 and all(n%p for p in range(2,int(n**.5)+1))
rng=random.Random(int(sys.argv[1]))
primes=[p for p in range(67,4097) if isprime(p)]
def bigf(n):
    m=n; f=2; big=1
    while f*f<=m:
        while m%f==0: big=max(big,f); m//=f
        f+=1
    return max(big,m)
odds=[n for n in range(67,8193,2) if not isprime(n) and bigf(n)>31]
cases=[('c2c','single',p) for p in rng.sample(primes,70)]+[('c2c','double',p) for p in rng.sample([p for p in primes if p<=2048],50)]+[('r2c','single',n) for n in rng.sample(odds,50)]+[('r2c','double',n) for n in rng.sample([n for n in odds if n<=4096],30)]
def run(c):
    k,p,n=c
    out=subprocess.run(['build/apps/bfly/bfly','plan','--limits','hopper','--nvrtc','sm_90','--shape',str(n),'--batch','1000','--kind',k,'--precision',p],capture_output=True,text=True).stdout
    ks=[l for l in out.splitlines() if 'registers' in l or 'relaunched' in l or 'no other' in l]
    return c, ks
with ThreadPoolExecutor(2) as ex:
    for c,ks in ex.map(run,cases):
        spill=[l for l in ks if re.search(r'spills [1-9]',l) or 'relaunch' in l or 'no other' in l]
        if spill: print(c, '\n   '+'\n   '.join(re.sub(r'stack.*','',l).strip() for l in spill)); sys.stdout.flush()
print('done', len(cases))
