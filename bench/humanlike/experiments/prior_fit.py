# Prototype (issue 6, not shipped): conditional logit per band, u = -(se/s)^c (+ beta . features),
# fitted on even games, evaluated on odd games: expected match rate with the human move, top-1 rate
# and expected loss, without and with the feature prior. Output: bench/results/humanlike-prior-prototype.txt
# (the last one made is in the archive, bench/ARCHIVE.md)
# Needs numpy, scipy (bench/requirements.txt): run with bench/py.sh; reads /tmp/prior-data.pkl from prior_features.py.
import pickle, numpy as np, math
from scipy.optimize import minimize
data=pickle.load(open('/tmp/prior-data.pkl','rb'))
def se(L): return np.log1p(L/100.0)
def nll(theta, D, nf):
    ls, c = theta[0], theta[1]; beta=theta[2:2+nf]
    s=math.exp(ls); tot=0.0
    for (_,_,L,F,h) in D:
        u=-(se(L)/s)**c
        if nf: u=u+F@beta
        u=u-u.max(); lz=math.log(np.exp(u).sum())
        tot-= u[h]-lz
    return tot + (0.5*np.sum(beta**2) if nf else 0)
def evalm(theta, D, nf):
    s=math.exp(theta[0]); c=theta[1]; beta=theta[2:2+nf]; em=0; top=0; loss=0
    for (_,_,L,F,h) in D:
        u=-(se(L)/s)**c
        if nf: u=u+F@beta
        p=np.exp(u-u.max()); p/=p.sum()
        em+=p[h]; top+= (np.argmax(p)==h); loss+= p@L
    n=len(D); return em/n, top/n, loss/n
bands=sorted(set(d[0] for d in data))
nf=data[0][3].shape[1]
for band in bands:
    tr=[d for d in data if d[0]==band and d[1]%2==0]; te=[d for d in data if d[0]==band and d[1]%2==1]
    a=minimize(nll,[math.log(0.4),1.2],args=(tr,0),method='L-BFGS-B',bounds=[(-6,3),(0.2,5)])
    b=minimize(nll,np.r_[a.x,np.zeros(nf)],args=(tr,nf),method='L-BFGS-B',bounds=[(-6,3),(0.2,5)]+[(-5,5)]*nf)
    ea=evalm(a.x,te,0); eb=evalm(b.x,te,nf)
    hl=np.mean([d[2][d[4]] for d in te])
    print(f"{band} n={len(te)} humans_loss={hl:.1f} | base: match {ea[0]:.3f} top1 {ea[1]:.3f} loss {ea[2]:.1f} | prior: match {eb[0]:.3f} top1 {eb[1]:.3f} loss {eb[2]:.1f}", flush=True)
    print("   beta", np.round(b.x[2:],2).tolist(), flush=True)
