using System;
class B {}
