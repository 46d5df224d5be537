/* a.c - calls b.c, which calls back: check_cycles.py must fail here. */
int b_twice(int x);

int a_once(int x)
{
  return x > 0 ? b_twice(x - 1) : 0;
}
