// Linux's epoll, which Swift's Glibc module leaves out: cognate-load's rate mode waits on all
// its connections and on the next request's due time at once, on one thread.
#include <sys/epoll.h>
#include <time.h>
