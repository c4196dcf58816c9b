//! The store of a search tree's nodes, shared by the search threads without locks.
//!
//! Every field of a [`Node`] is an atomic, so threads read and update the statistics of a
//! tree they all search at once (the shared tree with virtual loss of [`super::mcts`]).
//! A node's children are one block of consecutive ids, reserved with one compare-and-swap
//! on the store's length and then written by the one thread that claimed the node's
//! expansion (state `OPEN` to `CLAIMED`); it publishes them by storing the state `EXPANDED`
//! with release ordering, and readers look at children only after seeing that state
//! (acquire). The store grows in chunks, allocated as the length reaches them, so only the
//! memory in use becomes resident, and never moves a node.

use std::ops::Range;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering};

use veletas_rules::{Color, Square};

/// A proven outcome: who wins, and in how many turns from the node's position (a
/// shot-choice node counts the turn under way; a finished game is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Proven {
    /// The winner with best play.
    pub winner: Color,
    /// Turns of both players until the game ends along the proof (1: the side to move
    /// wins at once; 3: on its second turn; an even count when the loser's last turn
    /// must hand the win over), saturated at 255. The solver keeps the
    /// first proof it finds below the root, so this bounds the best play's length.
    pub turns: u8,
}

impl Proven {
    pub(crate) fn new(winner: Color, turns: u32) -> Proven {
        Proven { winner, turns: turns.min(255) as u8 }
    }
}

const OPEN: u8 = 0;
const CLAIMED: u8 = 1;
const EXPANDED: u8 = 2;

const HAS_MOVE: u32 = 1 << 24;
const HAS_SHOT: u32 = 1 << 25;
const PROVEN: u16 = 1 << 8;
const WHITE_WINS: u16 = 1 << 9;

/// One node: the edge into it, its children once expanded, its proof and statistics.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// The shooter move (from, to) and the shot of the edge into the node, packed.
    edge: AtomicU32,
    first_child: AtomicU32,
    children: AtomicU16,
    state: AtomicU8,
    /// The proof, packed (0: none).
    proof: AtomicU16,
    /// How many of the children, in their order (highest prior first), selection has
    /// reached: every child past them is unvisited (see [`Node::tried`]).
    tried: AtomicU16,
    // Visits and summed rewards are kept in the chunk's array of [`Tally`]s, priors in
    // its array of their own, so that selection scans a node's children's values
    // contiguously.
}

/// What [`Nodes::init_block`] writes into a fresh node: the edge into it, its prior and,
/// for a shot that ends the game, its proof.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub(crate) shooter_move: Option<(Square, Square)>,
    pub(crate) shot: Option<Square>,
    pub(crate) prior: f32,
    pub(crate) proof: Option<Proven>,
}

/// A node's visits and summed rewards, side by side: a playout updates both, so it
/// writes one cache line per node (which matters when other threads read it).
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct Tally {
    visits: AtomicU32,
    /// Sum of rewards for the player who chose the edge into this node (f32 bits).
    value: AtomicU32,
}

/// A [`Tally`] as plain numbers (the same layout).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct PlainTally {
    /// Visits.
    pub(crate) visits: u32,
    /// Summed rewards.
    pub(crate) value: f32,
}

impl Tally {
    /// The tally now (relaxed loads; another thread may be updating it).
    #[inline(always)]
    pub(crate) fn load(&self) -> PlainTally {
        PlainTally {
            visits: self.visits.load(Ordering::Relaxed),
            value: f32::from_bits(self.value.load(Ordering::Relaxed)),
        }
    }
}

#[cfg(test)]
impl Tally {
    /// A tally holding `t`.
    pub(crate) fn new(t: PlainTally) -> Tally {
        Tally { visits: AtomicU32::new(t.visits), value: AtomicU32::new(t.value.to_bits()) }
    }
}

/// A node and its statistics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeRef<'a> {
    node: &'a Node,
    tally: &'a Tally,
    /// The prior of the edge into this node (f32 bits).
    prior: &'a AtomicU32,
}

impl std::ops::Deref for NodeRef<'_> {
    type Target = Node;

    fn deref(&self) -> &Node {
        self.node
    }
}

/// A block of consecutive nodes (a node's children) and their statistics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StatBlock<'a> {
    pub(crate) nodes: &'a [Node],
    pub(crate) tally: &'a [Tally],
    pub(crate) prior: &'a [AtomicU32],
}

impl<'a> StatBlock<'a> {
    /// The block's first `len` nodes (all of them when it has fewer).
    pub(crate) fn prefix(self, len: usize) -> StatBlock<'a> {
        let len = len.min(self.nodes.len()).min(self.tally.len()).min(self.prior.len());
        StatBlock { nodes: &self.nodes[..len], tally: &self.tally[..len], prior: &self.prior[..len] }
    }

    /// The statistics for selection while other threads may search the tree: the
    /// tallies as atomics, the priors as plain numbers read in place.
    ///
    /// # Safety
    /// The block must be a published block of children (the range of a node seen
    /// expanded, [`Node::child_range`]): their priors were written by [`Nodes::init`]
    /// before the publication and are never written again.
    pub(crate) unsafe fn published(self) -> (&'a [Tally], &'a [f32]) {
        // SAFETY: `AtomicU32` has the size, alignment and bit validity of `f32`; the
        // priors' only writes happen before the parent's release store of its expanded
        // state, which the caller's acquire load of that state saw, so these plain reads
        // race with no write.
        let prior = unsafe { std::slice::from_raw_parts(self.prior.as_ptr().cast::<f32>(), self.prior.len()) };
        (self.tally, prior)
    }

    /// The statistics as plain numbers (tallies, priors), read in place so that
    /// selection's scoring loop vectorizes its loads.
    ///
    /// # Safety
    /// No thread may write these nodes while the slices live: the caller has the tree
    /// to itself (it holds it by `&mut`).
    pub(crate) unsafe fn plain(self) -> (&'a [PlainTally], &'a [f32]) {
        // SAFETY: `Tally` and `PlainTally` are both `repr(C)` pairs of 4-byte fields
        // (`AtomicU32` has the size, alignment and bit validity of `u32`, and of `f32`,
        // whose every bit pattern is a value); the slices' pointers cover their own
        // memory, which lives as long as 'a; the caller guarantees no concurrent writes,
        // so plain reads race with nothing.
        unsafe {
            (
                std::slice::from_raw_parts(self.tally.as_ptr().cast::<PlainTally>(), self.tally.len()),
                std::slice::from_raw_parts(self.prior.as_ptr().cast::<f32>(), self.prior.len()),
            )
        }
    }
}

impl Node {
    /// Sets the edge of a fresh node (before its parent publishes it).
    fn init(&self, shooter_move: Option<(Square, Square)>, shot: Option<Square>) {
        let mut edge = 0;
        if let Some((from, to)) = shooter_move {
            edge |= HAS_MOVE | from.index() as u32 | (to.index() as u32) << 8;
        }
        if let Some(shot) = shot {
            edge |= HAS_SHOT | (shot.index() as u32) << 16;
        }
        self.edge.store(edge, Ordering::Relaxed);
        self.tried.store(0, Ordering::Relaxed);
    }

    /// How many children, from the first, selection has reached (chosen, or passed over
    /// as proven): the children are stored highest prior first, and selection takes an
    /// unvisited child only as the first unvisited one it may choose, so every child from
    /// here on is unvisited. Another thread may be raising it.
    pub(crate) fn tried(&self) -> u32 {
        u32::from(self.tried.load(Ordering::Relaxed))
    }

    /// Records that selection reached the first `count` children (see [`Node::tried`]);
    /// `shared`: other threads may raise it at the same time.
    pub(crate) fn reach(&self, count: u32, shared: bool) {
        let count = count.min(u32::from(u16::MAX)) as u16;
        // Written only when it grows: most selections choose a child already reached,
        // and a write would take the cache line from the other threads reading it.
        if count > self.tried.load(Ordering::Relaxed) {
            if shared {
                self.tried.fetch_max(count, Ordering::Relaxed);
            } else {
                self.tried.store(count, Ordering::Relaxed);
            }
        }
    }

    /// The shooter move of the edge into a shot-choice node.
    pub(crate) fn shooter_move(&self) -> Option<(Square, Square)> {
        let edge = self.edge.load(Ordering::Relaxed);
        (edge & HAS_MOVE != 0)
            .then(|| (Square::from_index_unchecked(edge & 0xff), Square::from_index_unchecked(edge >> 8 & 0xff)))
    }

    /// The shot of the edge into a move-choice node (None for the root and for shot-choice
    /// nodes).
    pub(crate) fn shot(&self) -> Option<Square> {
        let edge = self.edge.load(Ordering::Relaxed);
        (edge & HAS_SHOT != 0).then(|| Square::from_index_unchecked(edge >> 16 & 0xff))
    }

    /// Whether the children are published (a won node may have none).
    pub(crate) fn is_expanded(&self) -> bool {
        self.state.load(Ordering::Acquire) == EXPANDED
    }

    /// The ids of the children: empty until the node is expanded.
    pub(crate) fn child_range(&self) -> Range<u32> {
        if !self.is_expanded() {
            return 0..0;
        }
        let first = self.first_child.load(Ordering::Relaxed);
        first..first + u32::from(self.children.load(Ordering::Relaxed))
    }

    /// Claims the expansion of an open node for the calling thread; false when it is
    /// claimed or expanded already.
    pub(crate) fn try_claim(&self) -> bool {
        self.state.compare_exchange(OPEN, CLAIMED, Ordering::Acquire, Ordering::Relaxed).is_ok()
    }

    /// Gives a claim back (the children found no room).
    pub(crate) fn unclaim(&self) {
        self.state.store(OPEN, Ordering::Release);
    }

    /// Publishes the children of a claimed node.
    pub(crate) fn publish(&self, first_child: u32, children: u16) {
        self.first_child.store(first_child, Ordering::Relaxed);
        self.children.store(children, Ordering::Relaxed);
        self.state.store(EXPANDED, Ordering::Release);
    }

    /// Marks a won open node expanded without children (playouts stop there); false when
    /// another thread claimed it first (it then finds the win itself).
    pub(crate) fn close(&self) -> bool {
        self.state.compare_exchange(OPEN, EXPANDED, Ordering::AcqRel, Ordering::Relaxed).is_ok()
    }

    pub(crate) fn proof(&self) -> Option<Proven> {
        decode(self.proof.load(Ordering::Acquire))
    }

    pub(crate) fn set_proof(&self, proof: Proven) {
        self.proof.store(encode(proof), Ordering::Release);
    }

    /// Replaces the proof `old` by `new` unless another thread changed it meanwhile.
    pub(crate) fn replace_proof(&self, old: Proven, new: Proven) {
        let _ = self.proof.compare_exchange(encode(old), encode(new), Ordering::AcqRel, Ordering::Relaxed);
    }
}

impl NodeRef<'_> {
    #[cfg(test)]
    /// The prior of the edge into this node.
    pub(crate) fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Ordering::Relaxed))
    }

    pub(crate) fn visits(&self) -> u32 {
        self.tally.visits.load(Ordering::Relaxed)
    }

    pub(crate) fn value(&self) -> f32 {
        f32::from_bits(self.tally.value.load(Ordering::Relaxed))
    }

    /// The mean reward (0.5 before the first visit).
    pub(crate) fn mean(&self) -> f32 {
        let visits = self.visits();
        if visits == 0 { 0.5 } else { self.value() / visits as f32 }
    }

    /// Counts one visit; returns the visits before it. `shared`: other threads update the
    /// node too (an atomic add), else a plain load and store.
    pub(crate) fn add_visit(&self, shared: bool) -> u32 {
        if shared {
            self.tally.visits.fetch_add(1, Ordering::Relaxed)
        } else {
            let v = self.tally.visits.load(Ordering::Relaxed);
            self.tally.visits.store(v + 1, Ordering::Relaxed);
            v
        }
    }

    /// Adds `reward` to the value (see [`NodeRef::add_visit`] for `shared`).
    pub(crate) fn add_value(&self, reward: f32, shared: bool) {
        if shared {
            let _ = self.tally.value.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                Some((f32::from_bits(bits) + reward).to_bits())
            });
        } else {
            let bits = self.tally.value.load(Ordering::Relaxed);
            self.tally.value.store((f32::from_bits(bits) + reward).to_bits(), Ordering::Relaxed);
        }
    }
}

fn encode(proof: Proven) -> u16 {
    PROVEN | if proof.winner == Color::White { WHITE_WINS } else { 0 } | u16::from(proof.turns)
}

fn decode(bits: u16) -> Option<Proven> {
    (bits & PROVEN != 0).then_some(Proven {
        winner: if bits & WHITE_WINS != 0 { Color::White } else { Color::Black },
        turns: (bits & 0xff) as u8,
    })
}

/// Nodes per chunk of the store (about 900 KB).
const CHUNK_SHIFT: u32 = 15;
const CHUNK: usize = 1 << CHUNK_SHIFT;
/// The most nodes one [`Nodes::alloc`] reserves (a node's children: a few hundred).
pub(crate) const MAX_BLOCK: u32 = CHUNK as u32;

/// One chunk of the store: the nodes, and their statistics one array per field.
#[derive(Debug)]
struct Chunk {
    nodes: Box<[Node]>,
    tally: Box<[Tally]>,
    prior: Box<[AtomicU32]>,
}

// A fresh node is all zeros: an open node without proof, visits, value or prior.
const _: () = assert!(OPEN == 0);

impl Chunk {
    fn new(size: usize) -> Chunk {
        // SAFETY: every field of a `Node` and a `Tally` is an atomic integer, and an
        // `AtomicU32` is one, for which all-zero bytes are a valid value (0).
        let chunk = unsafe { Chunk { nodes: zeroed(size), tally: zeroed(size), prior: zeroed(size) } };
        // A store into every page now maps it writable. Fresh zeroed memory is mapped
        // only when first touched, and when a search thread first reads a page (the
        // shared zero page gets mapped) and then writes it, the kernel must replace the
        // mapping and flush it from every CPU running the search: an interrupt to the
        // other threads for each page (a tenth of the time of two threads).
        touch(&chunk.nodes, |n| n.state.store(OPEN, Ordering::Relaxed));
        touch(&chunk.tally, |t| t.visits.store(0, Ordering::Relaxed));
        touch(&chunk.prior, |p| p.store(0, Ordering::Relaxed));
        chunk
    }
}

/// Calls `write` on one item of every 4 KiB page of `items`.
fn touch<T>(items: &[T], write: impl Fn(&T)) {
    let step = (4096 / std::mem::size_of::<T>().max(1)).max(1);
    items.iter().step_by(step).for_each(write);
}

/// `size` values of `T` of all-zero bytes, asked from the allocator as zeroed memory
/// (fresh pages need no writing of zeros).
///
/// # Safety
/// All-zero bytes must be a valid `T`.
unsafe fn zeroed<T>(size: usize) -> Box<[T]> {
    // SAFETY: the caller guarantees that zeroed memory holds valid values.
    unsafe { Box::<[T]>::new_zeroed_slice(size).assume_init() }
}

/// The node store: at most `max` nodes, allocated chunk by chunk.
#[derive(Debug)]
pub(crate) struct Nodes {
    chunks: Box<[OnceLock<Chunk>]>,
    /// Nodes allocated: written at every expansion, so on a cache line of its own, away
    /// from `chunks`, which every node lookup reads.
    len: Padded<AtomicU32>,
    /// The highest chunk made ahead of the store's length (see [`Nodes::alloc`]).
    made: AtomicU32,
    max: u32,
}

/// A value alone on its cache line (two 64-byte lines: neighbouring lines are fetched
/// in pairs).
#[derive(Debug, Default)]
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl Nodes {
    /// A store for `max` nodes (at most `u32::MAX`) holding one root node.
    pub(crate) fn new(max: usize) -> Nodes {
        let max = u32::try_from(max).unwrap_or(u32::MAX).max(1);
        let chunks = (max as usize).div_ceil(CHUNK);
        let nodes = Nodes {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            len: Padded(AtomicU32::new(0)),
            made: AtomicU32::new(0),
            max,
        };
        if let Some(root) = nodes.alloc(1) {
            nodes.init(root, None, None, 1.0);
        }
        nodes
    }

    /// Node `id`, which must have been allocated.
    #[inline(always)]
    pub(crate) fn get(&self, id: u32) -> NodeRef<'_> {
        let chunk = self.chunks[(id >> CHUNK_SHIFT) as usize].get().expect("a node is read only once allocated");
        let i = id as usize & (CHUNK - 1);
        NodeRef { node: &chunk.nodes[i], tally: &chunk.tally[i], prior: &chunk.prior[i] }
    }

    /// Nodes allocated.
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed) as usize
    }

    /// The node limit.
    pub(crate) fn max(&self) -> usize {
        self.max as usize
    }

    /// The nodes `range` (a block from one [`Nodes::alloc`], so within one chunk).
    #[inline]
    pub(crate) fn block(&self, range: Range<u32>) -> &[Node] {
        if range.is_empty() {
            return &[];
        }
        let chunk = self.chunks[(range.start >> CHUNK_SHIFT) as usize].get().expect("a block is read once allocated");
        let start = range.start as usize & (CHUNK - 1);
        chunk.nodes.get(start..start + range.len()).unwrap_or(&[])
    }

    /// The nodes `range` with their statistics (a block as for [`Nodes::block`]).
    #[inline]
    pub(crate) fn stat_block(&self, range: Range<u32>) -> StatBlock<'_> {
        let empty = StatBlock { nodes: &[], tally: &[], prior: &[] };
        if range.is_empty() {
            return empty;
        }
        let chunk = self.chunks[(range.start >> CHUNK_SHIFT) as usize].get().expect("a block is read once allocated");
        let r = range.start as usize & (CHUNK - 1)..(range.start as usize & (CHUNK - 1)) + range.len();
        match (chunk.nodes.get(r.clone()), chunk.tally.get(r.clone()), chunk.prior.get(r)) {
            (Some(nodes), Some(tally), Some(prior)) => StatBlock { nodes, tally, prior },
            _ => empty,
        }
    }

    /// Reserves `count` (at most [`MAX_BLOCK`]) consecutive fresh nodes within one chunk (a
    /// block that would cross into the next chunk starts there instead); their first id,
    /// or None past the limit.
    pub(crate) fn alloc(&self, count: u32) -> Option<u32> {
        if count > MAX_BLOCK {
            return None;
        }
        let mut first = 0;
        self.len
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |len| {
                let offset = len & (CHUNK as u32 - 1);
                first = if offset + count > CHUNK as u32 { len - offset + CHUNK as u32 } else { len };
                first.checked_add(count).filter(|&end| end <= self.max)
            })
            .ok()?;
        let end = first + count;
        if count > 0 {
            for c in (first >> CHUNK_SHIFT)..=((end - 1) >> CHUNK_SHIFT) {
                self.make_chunk(c);
            }
            // The first block past the middle of a chunk makes the next chunk, so that
            // it is ready when the store reaches it (the threads that reach a chunk
            // being made wait for it).
            let next = (end >> CHUNK_SHIFT) + 1;
            if end & (CHUNK as u32 - 1) >= CHUNK as u32 / 2
                && self.made.load(Ordering::Relaxed) < next
                && self.made.fetch_max(next, Ordering::Relaxed) < next
            {
                self.make_chunk(next);
            }
        }
        Some(first)
    }

    /// Makes chunk `c` unless it is made or past the limit.
    fn make_chunk(&self, c: u32) {
        let start = (c as usize) << CHUNK_SHIFT;
        if let Some(slot) = self.chunks.get(c as usize)
            && start < self.max as usize
        {
            slot.get_or_init(|| Chunk::new(CHUNK.min(self.max as usize - start)));
        }
    }

    /// Writes the edge and prior of fresh node `id` (after [`Nodes::alloc`]).
    pub(crate) fn init(&self, id: u32, shooter_move: Option<(Square, Square)>, shot: Option<Square>, prior: f32) {
        let n = self.get(id);
        n.node.init(shooter_move, shot);
        n.prior.store(prior.to_bits(), Ordering::Relaxed);
    }

    /// Writes the fresh nodes `first..first + count`, a block of one [`Nodes::alloc`]
    /// (so within one chunk, looked up once): node `first + i` becomes `child(i)`.
    pub(crate) fn init_block(&self, first: u32, count: usize, child: impl Fn(usize) -> Child) {
        if count == 0 {
            // An empty block may start past the chunks made.
            return;
        }
        let chunk = self.chunks[(first >> CHUNK_SHIFT) as usize].get().expect("a block is written once allocated");
        let start = first as usize & (CHUNK - 1);
        let (nodes, priors) = (&chunk.nodes[start..start + count], &chunk.prior[start..start + count]);
        for (i, (node, prior)) in nodes.iter().zip(priors).enumerate() {
            let c = child(i);
            node.init(c.shooter_move, c.shot);
            prior.store(c.prior.to_bits(), Ordering::Relaxed);
            if let Some(proof) = c.proof {
                node.set_proof(proof);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_and_edges_survive_packing() {
        for winner in Color::ALL {
            for turns in [0, 1, 3, 255] {
                let p = Proven { winner, turns };
                assert_eq!(decode(encode(p)), Some(p));
            }
        }
        assert_eq!(decode(0), None);
        let nodes = Nodes::new(100);
        let id = nodes.alloc(1).unwrap();
        let (a, b) = (Square::new(9, 9).unwrap(), Square::new(0, 3).unwrap());
        nodes.init(id, Some((a, b)), Some(b), 0.25);
        let n = nodes.get(id);
        assert_eq!((n.shooter_move(), n.shot(), n.prior()), (Some((a, b)), Some(b), 0.25));
        nodes.init(id, None, None, 1.0);
        assert_eq!((n.shooter_move(), n.shot()), (None, None));
    }

    #[test]
    fn the_store_never_allocates_past_its_limit_even_from_many_threads() {
        let nodes = Nodes::new(CHUNK * 2 + 10);
        let got = std::sync::atomic::AtomicU32::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    while let Some(first) = nodes.alloc(7) {
                        for id in first..first + 7 {
                            nodes.get(id).add_visit(true);
                        }
                        got.fetch_add(7, Ordering::Relaxed);
                    }
                });
            }
        });
        // The root and every block that fitted, each node counted once (blocks never
        // cross chunks: a chunk's last few nodes may stay unused).
        let total = got.load(Ordering::Relaxed) as usize + 1;
        assert!(total <= nodes.len() && total + 2 * 7 >= nodes.len(), "{total} of {}", nodes.len());
        assert!(nodes.len() <= nodes.max() && nodes.len() + 7 > nodes.max());
        let visited: Vec<u32> = (1..nodes.len() as u32).map(|id| nodes.get(id).visits()).collect();
        assert!(visited.iter().all(|&v| v <= 1) && visited.iter().sum::<u32>() as usize == total - 1);
    }
}
