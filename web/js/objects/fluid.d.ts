// Types of the fluid object type (fluid.js): its scene description, emitters, drains and World.fluidStats().

/** A hose: discs of particles across the nozzle leave `position` along `direction` at `speed`. */
export interface EmitterDescription {
  position: [number, number, number]; /** not zero; normalised by the engine */ direction: [number, number, number];
  /** m/s, (0, 50]; default 1 */ speed?: number; /** m, [fluid.spacing / 2, 1]; default fluid.spacing */ radius?: number;
  /** default true */ enabled?: boolean;
}
/** A box whose fluid particles are removed every step. */
export interface DrainDescription { lower: [number, number, number]; upper: [number, number, number]; }

export interface FluidObject {
  type: 'fluid'; name?: string;
  /** particles on the lattice of fluid.spacing filling the box; null or absent: none (for a hose to fill) */
  block?: { lower: [number, number, number]; upper: [number, number, number] } | null;
  /** of every particle of the block */ velocity?: [number, number, number];
  /** particles reserved, at least the block's; 0 (default): exactly the block's */ capacity?: number;
  emitters?: EmitterDescription[]; drains?: DrainDescription[];
}

export interface FluidStats {
  particles: number; capacity: number; emitted: number; drained: number;
  /** an emitter could not add all it meant to in the last step: the capacity is reached */ full: boolean;
  droppedNeighbours: number; meanNeighbours: number;
  /** rho / rho0 */ meanDensity: number; maxDensity: number; /** mean max(rho / rho0 - 1, 0) */ densityError: number;
}
