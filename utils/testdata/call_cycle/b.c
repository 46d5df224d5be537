/* b.c - calls a.c, which called it. */
int a_once(int x);

int b_twice(int x)
{
  return a_once(x) * 2;
}
