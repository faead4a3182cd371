// glibc's malloc tuning (mallopt): Foundation's Glibc module does not carry <malloc.h>.
// The merge turns glibc's fastbins off (see the `merge` command in main.swift).
#include <malloc.h>
