// OpenBLAS's CBLAS interface (sgemm, sgemv) and its thread control (openblas_set_num_threads).
#include <cblas.h>
