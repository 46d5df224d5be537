#pragma once
void clamp_all(float *p, int n);
void report(const float *h, int n);
