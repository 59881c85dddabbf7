extension BitmapFont {
    /// A 3×5 font for 8-pixel-tall LED strips: cell 3×5, advance 4, no descenders (text box 5
    /// rows), line height 6.
    ///
    /// Capitals and digits fill the cell; lowercase letters use rows 1 ... 4 (x-height 4) with
    /// ascenders in row 0, and g, j, p, q, y squeeze their tails into the cell. Digits are square
    /// ("0" has corners, "O" does not). Every glyph differs from every other, though some
    /// lowercase letters differ from their capital by a single row (o/O, s/S, u/U, v/V, w/W, x/X,
    /// z/Z, c/C, k/K, m/M): at 3×5 there is no room to do more. The fallback is a checkerboard.
    public static let small = BitmapFont(name: "small", cellWidth: 3, cellHeight: 5, descent: 0,
                                         lineHeight: 6, art: smallArt, accents: smallAccents)
}

/// Accents in row 0, above the x-height (`LatinFold.Accent` order): none, grave `#..`, acute
/// `..#`, circumflex `.#.`, tilde `.##`, diaeresis `#.#`, ring `.#.`, cedilla (no room: none).
private let smallAccents: [UInt64] = [0, 1 << 0, 1 << 2, 1 << 1, 1 << 1 | 1 << 2, 1 << 0 | 1 << 2, 1 << 1, 0]

/// The glyphs of `BitmapFont.small`, in the strip format described at `GlyphArt`.
private let smallArt = #"""
SP  !   "   #   $   %   &   '   (   )   *   +
... .#. #.# #.# .## #.# .#. .#. ..# #.. #.# ...
... .#. #.# ### ##. ..# #.# .#. .#. .#. .#. .#.
... .#. ... #.# .## .#. .#. ... .#. .#. #.# ###
... ... ... ### ##. #.. #.# ... .#. .#. ... .#.
... .#. ... #.# .#. #.# .## ... ..# #.. ... ...

,   -   .   /   0   1   2   3   4   5   6   7
... ... ... ..# ### .#. ### ### #.# ### ### ###
... ... ... ..# #.# ##. ..# ..# #.# #.. #.. ..#
... ### ... .#. #.# .#. ### .## ### ### ### ..#
.#. ... ... #.. #.# .#. #.. ..# ..# ..# #.# .#.
#.. ... .#. #.. ### ### ### ### ..# ### ### .#.

8   9   :   ;   <   =   >   ?   @   A   B   C
### ### ... ... ..# ... #.. ##. .#. .#. ##. .##
#.# #.# .#. .#. .#. ### .#. ..# #.# #.# #.# #..
### ### ... ... #.. ... ..# .#. ### ### ##. #..
#.# ..# .#. .#. .#. ### .#. ... #.. #.# #.# #..
### ..# ... #.. ..# ... #.. .#. .## #.# ##. .##

D   E   F   G   H   I   J   K   L   M   N   O
##. ### ### .## #.# ### ..# #.# #.. #.# ##. .#.
#.# #.. #.. #.. #.# .#. ..# #.# #.. ### #.# #.#
#.# ##. ##. #.# ### .#. ..# ##. #.. #.# #.# #.#
#.# #.. #.. #.# #.# .#. #.# #.# #.. #.# #.# #.#
##. ### #.. .## #.# ### .#. #.# ### #.# #.# .#.

P   Q   R   S   T   U   V   W   X   Y   Z   [
##. .#. ##. .## ### #.# #.# #.# #.# #.# ### ##.
#.# #.# #.# #.. .#. #.# #.# #.# #.# #.# ..# #..
##. #.# ##. .#. .#. #.# #.# ### .#. .#. .#. #..
#.. ##. #.# ..# .#. #.# #.# ### #.# .#. #.. #..
#.. .## #.# ##. .#. ### .#. #.# #.# .#. ### ##.

\   ]   ^   _   `   a   b   c   d   e   f   g
#.. .## .#. ... #.. ... #.. ... ..# ... .## ...
#.. ..# #.# ... .#. .## ##. .## .## .#. .#. .##
.#. ..# ... ... ... #.# #.# #.. #.# ### ### #.#
..# ..# ... ... ... #.# #.# #.. #.# #.. .#. .##
..# .## ... ### ... .## ##. .## .## .## .#. ##.

h   i   j   k   l   m   n   o   p   q   r   s
#.. .#. ..# #.. ##. ... ... ... ... ... ... ...
##. ... ... #.# .#. ### ##. .#. ##. .## .## .##
#.# .#. ..# ##. .#. ### #.# #.# #.# #.# #.. ##.
#.# .#. ..# #.# .#. #.# #.# #.# ##. .## #.. ..#
#.# .#. ##. #.# .## #.# #.# .#. #.. ..# #.. ##.

t   u   v   w   x   y   z   {   |   }   ~   FALLBACK ELLIPSIS
.#. ... ... ... ... ... ... .## .#. ##. ... #.# ...
### #.# #.# #.# ... #.# ### .#. .#. .#. ##. .#. ...
.#. #.# #.# ### #.# #.# .#. ##. .#. .## .## #.# ...
.#. #.# #.# ### .#. .#. #.. .#. .#. .#. ... .#. ...
.## .## .#. #.# #.# #.. ### .## .#. ##. ... #.# #.#
"""#
