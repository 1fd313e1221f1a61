import random, subprocess, sys, re
rng=random.Random(int(sys.argv[1])); prec=sys.argv[2]
def smooth(n):
    for p in (2,3,5,7,11,13):
        while n%p==0: n//=p
    return n==1
cands=[n for n in range(1024,16385) if smooth(n)]
B='build/apps/bfly/bfly'
def launch(n,v,nvrtc=False):
    a=[B,'plan','--limits','hopper','--shape',str(n),'--batch','100','--precision',prec]+(['--nvrtc','sm_90'] if nvrtc else [])
    out=subprocess.run(a,capture_output=True,text=True,env={'BFLY_LIMITS':'row_busiest=%d'%v}).stdout
    t=[l for l in out.splitlines() if 'threads,' in l]
    r=[re.sub(r'stack.*','',l).split(': ',1)[-1] for l in out.splitlines() if 'registers' in l or 'relaunched' in l]
    return (t[0].split('groups of')[1].split('bytes local')[0].strip() if t else ''), r
changed=0; total=0
for n in rng.sample(cands,150):
    a,_=launch(n,1); b,_=launch(n,2); total+=1
    if a!=b:
        changed+=1
        _,ra=launch(n,1,True); _,rb=launch(n,2,True)
        print(n,'| old',a,ra,'| new',b,rb); sys.stdout.flush()
print('changed',changed,'of',total)
