/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSSE3 kernels: this file alone is compiled with -mssse3 and only runs
 * after vmi_conv_impl_supported() checked the CPU. */

#include <immintrin.h>

#define VMI_SIMD_NAME ssse3
#define VMI_SIMD_AVX2 0
#include "vmi-convert-simd.h"
