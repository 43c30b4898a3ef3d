// What a first touch of a fresh page costs on this machine (BENCHMARKS.md, session 8):
// 40 MB of anonymous memory touched a page at a time, populated by the kernel in one
// call, and touched with transparent huge pages asked for.
// Build and run: gcc -O2 -o /tmp/page-fault bench/page-fault.c && /tmp/page-fault
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
int main(){ size_t n=40<<20; struct timespec a,b;
 clock_gettime(CLOCK_MONOTONIC,&a);
 char*p=mmap(0,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
 for(size_t i=0;i<n;i+=4096)p[i]=1;
 clock_gettime(CLOCK_MONOTONIC,&b);
 printf("touch: %.2f us/page\n",((b.tv_sec-a.tv_sec)*1e9+(b.tv_nsec-a.tv_nsec))/1e3/(n/4096));
 clock_gettime(CLOCK_MONOTONIC,&a);
 char*q=mmap(0,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS|MAP_POPULATE,-1,0);
 clock_gettime(CLOCK_MONOTONIC,&b);
 printf("populate: %.2f us/page\n",((b.tv_sec-a.tv_sec)*1e9+(b.tv_nsec-a.tv_nsec))/1e3/(n/4096));
 clock_gettime(CLOCK_MONOTONIC,&a);
 char*r=mmap(0,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
 madvise(r,n,MADV_HUGEPAGE);
 for(size_t i=0;i<n;i+=4096)r[i]=1;
 clock_gettime(CLOCK_MONOTONIC,&b);
 printf("thp touch: %.2f us/page\n",((b.tv_sec-a.tv_sec)*1e9+(b.tv_nsec-a.tv_nsec))/1e3/(n/4096));
 return p[0]+q[0]+r[0];}
