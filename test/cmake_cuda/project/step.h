#pragma once
void mask_all(unsigned *p, int n);
void report(const unsigned *h, int n);
