#!/usr/bin/env python3
import struct, os
# Writes the seeds of floe_parquet_decoders_fuzz (decoders_fuzz.cc explains the header): one input
# per decoder, each a small valid encoding written by the rules of the Parquet format's Encodings.md.
# Run it from anywhere: python3 make_decoder_seeds.py
D=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'decoders', 'seeds')
os.makedirs(D, exist_ok=True)
def uvar(v):
    out=b''
    while True:
        b=v&0x7f; v>>=7
        if v: out+=bytes([b|0x80])
        else: return out+bytes([b])
def zz(v): return uvar((v<<1)^(v>>63)) if v<0 else uvar(v<<1)
def pack(values, w):
    bits=0; n=0; out=bytearray()
    for v in values:
        bits|=(v&((1<<w)-1))<<n; n+=w
        while n>=8: out.append(bits&0xff); bits>>=8; n-=8
    if n: out.append(bits&0xff)
    return bytes(out)
def dbp(values, bits=64):
    # block 128, 4 miniblocks of 32
    out=uvar(128)+uvar(4)+uvar(len(values))+zz(values[0])
    rest=values[1:]; prev=values[0]
    for b in range(0,len(rest),128):
        block=rest[b:b+128]; deltas=[]
        for v in block: deltas.append(v-prev); prev=v
        m=min(deltas); adj=[d-m for d in deltas]
        widths=[]; body=b''
        for i in range(4):
            mb=adj[i*32:(i+1)*32]
            if not mb: widths.append(0); continue
            w=max(x.bit_length() for x in mb); widths.append(w)
            body+=pack(mb+[0]*(32-len(mb)), w)
        out+=zz(m)+bytes(widths)+body
    return out
def seed(name, dec, param, count, body):
    open(f'{D}/{name}','wb').write(bytes([dec,param,count&0xff,count>>8])+body)
ints=[5,7,-3,1000,42,42,43,-100000]+list(range(0,300,3))
seed('plain_int32',0,0,len(ints),b''.join(struct.pack('<i',v) for v in ints))
seed('plain_int64',1,0,len(ints),b''.join(struct.pack('<q',v*10**9) for v in ints))
seed('plain_int96',2,0,2,struct.pack('<qI',3600*10**9,2440588)*2)
seed('plain_float',3,0,4,struct.pack('<4f',1.5,-0.0,float('inf'),float('nan')))
seed('plain_double',4,0,4,struct.pack('<4d',1.5,-0.0,float('inf'),float('nan')))
seed('plain_boolean',5,0,20,bytes([0b10110101,0b01,0b1111]))
strs=[b'apple',b'',b'banana',b'band',b'bandana']
seed('plain_byte_array',6,0,len(strs),b''.join(struct.pack('<I',len(s))+s for s in strs))
seed('plain_fixed_len',7,3,3,b'abcdefghijkl')
# RLE hybrid: a repeated run (8 x value 5, width 3) and a bit-packed run of 8 values
seed('rle_hybrid',8,3,16,uvar(8<<1)+bytes([5])+uvar((1<<1)|1)+pack([0,1,2,3,4,5,6,7],3))
seed('bit_packed_levels',9,1,16,pack([1,0,1,1,0,0,1,0,1,1,1,1,0,0,0,1],1))
seed('dictionary_indices',10,9,12,bytes([4])+uvar(4<<1)+bytes([3])+uvar((1<<1)|1)+pack([0,1,2,3,4,5,6,7,8,9,1,2,3,4,5,6],4))
seed('delta_binary_packed_int32',11,0,len(ints),dbp(ints))
seed('delta_binary_packed_int64',12,0,len(ints),dbp([v*10**9 for v in ints]))
seed('delta_length_byte_array',13,0,len(strs),dbp([len(s) for s in strs])+b''.join(strs))
pref=[0,0,0,3,4]; suf=[b'apple',b'',b'banana',b'd',b'ana']
seed('delta_byte_array',14,0,5,dbp(pref)+dbp([len(s) for s in suf])+b''.join(suf))
def bss(vals, fmt, w):
    raw=b''.join(struct.pack(fmt,v) for v in vals)
    return bytes(raw[i*w+k] for k in range(w) for i in range(len(vals)))
seed('byte_stream_split_float',15,0,4,bss([1.5,-2.25,3.0,1e30],'<f',4))
seed('byte_stream_split_double',16,0,3,bss([1.5,-2.25,1e300],'<d',8))
seed('byte_stream_split_int32',17,0,4,bss([1,-1,1<<20,7],'<i',4))
seed('byte_stream_split_int64',18,0,3,bss([1,-1,1<<40],'<q',8))
seed('byte_stream_split_fixed_len',19,1,3,bytes([ord('a'),ord('c'),ord('e'),ord('b'),ord('d'),ord('f')]))
