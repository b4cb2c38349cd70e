import { useLanguage } from './index';
import { enWestLife } from './en-west-life';
import { useWestT, type WestMessages } from './west';
import { zhWestLife } from './zh-west-life';

export type LifeMessages = WestMessages & typeof enWestLife;

export function useLifeT(): LifeMessages {
  const base = useWestT();
  return { ...base, ...(useLanguage() === 'zh' ? zhWestLife : enWestLife) };
}
