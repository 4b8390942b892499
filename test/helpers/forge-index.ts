import { execFileSync } from "node:child_process";

/** How the forged entry lies (see `forgeIndexPython`). */
export interface IndexForgery {
  /** The tracked path whose entry is rewritten (added when the index has none). */
  path: string;
  /** The content whose blob id the entry gets: the code as it was proven. */
  blob: string;
  /** The entry's mode; by default the file's own (`100644` or `100755`). */
  mode?: "100644" | "100755" | "160000";
  /** Set git's assume-valid bit (what `git update-index --assume-unchanged` sets). */
  assumeValid?: boolean;
}

/**
 * Python (standard library only: `struct`, `hashlib`) that rewrites `.git/index` in the current folder the way an
 * agent's shell can: the entry of `path` gets the blob id of `blob` and the stat of the file as it is now (size,
 * times, device, inode: what `os.stat` reads after the file was written), so git takes the file for unmodified. The
 * index file's mtime goes an hour ahead, so git finds no entry "racily clean" and compares no content. Extensions
 * are dropped. Versions 2 and 3, SHA-1 repositories.
 */
export function forgeIndexPython(forgery: IndexForgery): string {
  const params = JSON.stringify({
    path: forgery.path,
    blob: forgery.blob,
    mode: forgery.mode ?? null,
    assumeValid: forgery.assumeValid ?? false,
  });
  return [
    "import hashlib,json,os,struct,time",
    `P=json.loads(${JSON.stringify(params)})`,
    "d=open('.git/index','rb').read()",
    "sig,ver,n=struct.unpack('>4sII',d[:12])",
    "assert sig==b'DIRC' and ver in (2,3), ver",
    "at=12;ents=[]",
    "for _ in range(n):",
    "  x=62+(2 if struct.unpack('>H',d[at+60:at+62])[0]&0x4000 else 0)",
    "  end=d.index(b'\\0',at+x);name=d[at+x:end]",
    "  ents.append([bytearray(d[at:at+x]),name]);at+=(x+len(name)+8)&~7",
    "target=P['path'].encode();blob=P['blob'].encode()",
    "oid=hashlib.sha1(b'blob %d\\0'%len(blob)+blob).digest()",
    "st=os.stat(P['path'])",
    "mode=int(P['mode'],8) if P['mode'] else (0o100755 if st.st_mode&0o100 else 0o100644)",
    "ent=next((e for e in ents if e[1]==target),None)",
    "if ent is None:",
    "  ent=[bytearray(62),target];ents.append(ent);ents.sort(key=lambda e:e[1])",
    "ent[0][0:40]=struct.pack('>10I',int(st.st_ctime),st.st_ctime_ns%10**9,int(st.st_mtime),st.st_mtime_ns%10**9,st.st_dev&0xffffffff,st.st_ino&0xffffffff,mode,st.st_uid,st.st_gid,st.st_size&0xffffffff)",
    "ent[0][40:60]=oid",
    "flags=struct.unpack('>H',ent[0][60:62])[0]&0x7000|min(len(target),0xfff)|(0x8000 if P['assumeValid'] else 0)",
    "ent[0][60:62]=struct.pack('>H',flags)",
    "out=b'DIRC'+struct.pack('>II',ver,len(ents))",
    "for e in ents:",
    "  size=(len(e[0])+len(e[1])+8)&~7;out+=bytes(e[0])+e[1]+b'\\0'*(size-len(e[0])-len(e[1]))",
    "out+=hashlib.sha1(out).digest()",
    "open('.git/index','wb').write(out)",
    "t=time.time()+3600;os.utime('.git/index',(t,t))",
  ].join("\n");
}

/** Runs `forgeIndexPython` in `dir` with python3, as a process that may write `.git/index` and read the tree. */
export function forgeIndex(dir: string, forgery: IndexForgery): void {
  execFileSync("python3", ["-c", forgeIndexPython(forgery)], {
    cwd: dir,
    stdio: "pipe",
  });
}

/** Python run from base64, which the Bash parser cannot read: only the operating system's boundary holds. */
export function base64Python(code: string): string {
  return `python3 -c "import base64;exec(base64.b64decode('${Buffer.from(code).toString("base64")}'))"`;
}
