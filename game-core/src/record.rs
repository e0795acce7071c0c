//! Game records: the move string, SGF (Gomoku GM[4], Othello GM[2]) and PSQ (Piskvork).
