/* launch_describe.h - describe a launch site: kernel, grid, block, shared
 * memory and stream, as remark text (launch_sites.h owns the sites). */
#ifndef PYGRAPH_LAUNCH_DESCRIBE_H
#define PYGRAPH_LAUNCH_DESCRIBE_H

#include "call_classifier.h"

#include <stddef.h>

/* Kernel shown in remarks: "axpy(float*, float, int)", or a placeholder
 * for launches whose kernel is only known at run time.  malloc'd (the
 * demangling is done only for a remark). */
char *pg_launch_kernel_name(const pg_call_info *ci);
/* "launch of 'K(...)' grid=(x,y,z) block=(x,y,z) shmem=N stream=S" */
/* malloc'd: the caller frees it. */
char *pg_describe_launch(const pg_call_info *ci, LLVMValueRef call);

#endif
